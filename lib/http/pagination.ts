import { z } from "zod";
import { hasPrefix, ID_PREFIXES, type IdKind } from "../ids";
import { invalid } from "./errors";
import { zIntIn } from "./fields";

// Svix-style cursor pagination: `iterator` is the key (id, or name for event types) of the last
// item returned; `prevIterator` is "-" + the first item's key and walks backwards.

export const MAX_LIMIT = 250;

export const listQuery = z.object({
  limit: zIntIn(1, MAX_LIMIT, z.coerce.number()).default(50),
  // An id or event-type name, "-"-prefixed for the previous page (prevIterator).
  iterator: z
    .string()
    .max(257)
    .regex(/^(-?[a-zA-Z0-9\-_.]+)?$/, "is not an iterator this API returned (use `iterator` or `prevIterator`)")
    .optional(),
  order: z.enum(["ascending", "descending"]).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export type ListResponse<T> = { data: T[]; done: boolean; iterator: string | null; prevIterator: string | null };

export type PageRequest = {
  /** Direction to read in the database. */
  direction: "asc" | "desc";
  /** Exclusive bound on the key, in the read direction. */
  after?: string;
  take: number;
};

/**
 * What a list is keyed on: the rows' `id`, an id of this kind (a delivery's for lists of
 * deliveries, whatever they show), or `name` (event types, whose names the query schema checks).
 */
export type ListKey = IdKind | "name";
type KeyField<K extends ListKey> = K extends "name" ? "name" : "id";

export async function paginate<K extends ListKey, Row extends Record<KeyField<K>, string>>(
  q: { limit: number; iterator?: string | undefined; order?: "ascending" | "descending" | undefined },
  defaultOrder: "ascending" | "descending",
  key: K,
  fetch: (page: PageRequest) => Promise<Row[]>,
): Promise<{ rows: Row[]; done: boolean; iterator: string | null; prevIterator: string | null }> {
  const ascending = (q.order ?? defaultOrder) === "ascending";
  const backwards = q.iterator?.startsWith("-") ?? false;
  const cursor = backwards ? q.iterator!.slice(1) : q.iterator;
  // Any text would otherwise do as a bound (iterator=garbage answered 200 with some page), so a
  // mistyped or foreign iterator silently restarted or skipped the list instead of saying so.
  const kind: ListKey = key;
  if (cursor && kind !== "name" && !hasPrefix(cursor, kind))
    throw invalid(
      ["query", "iterator"],
      `is not an iterator this list returned (its keys are ${ID_PREFIXES[kind]}_… ids; pass its iterator or prevIterator)`,
    );
  const field = (key === "name" ? "name" : "id") as KeyField<K>;
  const readAscending = backwards ? !ascending : ascending;

  const rows = await fetch({
    direction: readAscending ? "asc" : "desc",
    ...(cursor ? { after: cursor } : {}),
    take: q.limit + 1,
  });
  const done = rows.length <= q.limit;
  const page = rows.slice(0, q.limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  return {
    rows: page,
    done,
    iterator: last ? last[field] : (cursor ?? null),
    prevIterator: first ? `-${first[field]}` : null,
  };
}

/** Prisma where-fragment for the cursor bound on `field`. */
export function cursorWhere(page: PageRequest, field = "id"): Record<string, unknown> {
  if (!page.after) return {};
  return { [field]: page.direction === "asc" ? { gt: page.after } : { lt: page.after } };
}

export function toListResponse<Row, T>(
  page: { rows: Row[]; done: boolean; iterator: string | null; prevIterator: string | null },
  map: (row: Row) => T,
): ListResponse<T> {
  return { data: page.rows.map(map), done: page.done, iterator: page.iterator, prevIterator: page.prevIterator };
}
