import { z } from "zod";

// Svix-style cursor pagination: `iterator` is the key (id, or name for event types) of the last
// item returned; `prevIterator` is "-" + the first item's key and walks backwards.

export const MAX_LIMIT = 250;

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(50),
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

export async function paginate<K extends string, Row extends Record<K, string>>(
  q: { limit: number; iterator?: string | undefined; order?: "ascending" | "descending" | undefined },
  defaultOrder: "ascending" | "descending",
  key: K,
  fetch: (page: PageRequest) => Promise<Row[]>,
): Promise<{ rows: Row[]; done: boolean; iterator: string | null; prevIterator: string | null }> {
  const ascending = (q.order ?? defaultOrder) === "ascending";
  const backwards = q.iterator?.startsWith("-") ?? false;
  const cursor = backwards ? q.iterator!.slice(1) : q.iterator;
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
    iterator: last ? last[key] : (cursor ?? null),
    prevIterator: first ? `-${first[key]}` : null,
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
