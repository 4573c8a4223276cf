import { readEventStream } from "./read-event-stream";

// The browser side of the API, shared by the portal and the console: how an answer that is not
// 2xx becomes an ApiFailure a page can show, and JSON and event-stream calls on top of a `send`
// that each front end writes for itself (the portal sends its session as a bearer header and
// renews it; the console relies on the session cookie and names its environment).

export type FieldError = { loc: (string | number)[]; msg: string; type: string };

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly fields: FieldError[] = [],
  ) {
    super(detail);
  }
}

/** Status 0: no answer at all (offline, Herald down, a proxy dropping the connection). */
export const UNREACHABLE = "unreachable";

// fetch() rejects with a TypeError ("Failed to fetch") when no answer comes back; pages show
// this plain sentence instead, and the query layer keeps retrying.
export async function reach(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (e) {
    if (init.signal?.aborted) throw e;
    throw new ApiFailure(0, UNREACHABLE, "Herald cannot be reached right now. Check your connection, then try again.");
  }
}

export async function failure(res: Response): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const b = (body ?? {}) as { code?: string; detail?: unknown };
  if (res.status === 422 && Array.isArray(b.detail)) {
    const fields = b.detail as FieldError[];
    const text = fields.map(fieldErrorText).join(" ");
    return new ApiFailure(422, "validation", text, fields);
  }
  // A 5xx (or a proxy's error page) has nothing the user can act on: say so plainly.
  if (res.status >= 500)
    return new ApiFailure(res.status, b.code ?? `http_${res.status}`, "Something went wrong on Herald's side. Try again in a moment.");
  return new ApiFailure(
    res.status,
    b.code ?? `http_${res.status}`,
    typeof b.detail === "string" ? b.detail : `The request was refused (HTTP ${res.status}).`,
  );
}

const WHERE: Record<string, string> = { body: "field", query: "parameter", path: "part of the address" };

/**
 * One 422 item as a sentence a person reads, naming the field, never a raw zod path:
 * {loc: ["query", "status", 0], msg: "must be one of …"} → 'The "status" parameter (value 1)
 * must be one of ….'; an index inside is the value's position, counted from 1.
 */
export function fieldErrorText(f: FieldError): string {
  const [where, ...path] = f.loc;
  const kind = WHERE[String(where)];
  const parts = kind ? path : f.loc;
  const names = parts.filter((p) => typeof p !== "number").join(".");
  const positions = parts.filter((p): p is number => typeof p === "number").map((n) => `value ${n + 1}`);
  const field = names ? `The "${names}" ${kind ?? "field"}${positions.length ? ` (${positions.join(", ")})` : ""}` : "The request";
  const msg = f.msg.trim().replace(/\.$/, "");
  // "must be …", "is required": the message continues the sentence; anything else follows a colon.
  return /^(must|is|are|should|cannot|has|needs)\b/.test(msg) ? `${field} ${msg}.` : `${field}: ${msg}.`;
}

/**
 * The messages of a field's 422 errors (every one: a list field can have several bad entries,
 * and fixing one only to be told of the next wastes a round), if the API named that field.
 */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiFailure)) return undefined;
  const msgs = err.fields.filter((f) => f.loc.includes(field)).map((f) => f.msg);
  if (msgs.length <= 1) return msgs[0];
  return `${msgs.map((m) => m.trim().replace(/\.$/, "")).join(". ")}.`;
}

export type RequestOptions = { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> };

/** `fetch` options of a JSON call under /api/v1 (headers of the front end's own added by its `send`). */
export function jsonRequest(init: RequestOptions, headers: Record<string, string>): RequestInit {
  return {
    method: init.method ?? "GET",
    headers: {
      ...headers,
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal ?? null,
    cache: "no-store",
  };
}

export type ApiClient = {
  /** JSON in, JSON out; throws ApiFailure for anything but 2xx. */
  api: <T>(path: string, init?: RequestOptions) => Promise<T>;
  /**
   * Reads a text/event-stream (task progress; with the front end's own headers, which
   * EventSource cannot send) and calls `onEvent` for each event until it ends or `signal` aborts.
   */
  streamEvents: (path: string, onEvent: (event: { event: string; data: string }) => void, signal: AbortSignal) => Promise<void>;
};

export function createApiClient(send: (path: string, init: RequestOptions) => Promise<Response>): ApiClient {
  return {
    async api<T>(path: string, init: RequestOptions = {}): Promise<T> {
      const res = await send(path, init);
      if (!res.ok) throw await failure(res);
      if (res.status === 204) return undefined as T;
      return (await res.json()) as T;
    },
    async streamEvents(path, onEvent, signal) {
      const res = await send(path, { signal, headers: { accept: "text/event-stream" } });
      if (!res.ok || !res.body) throw await failure(res);
      await readEventStream(res.body, onEvent);
    },
  };
}
