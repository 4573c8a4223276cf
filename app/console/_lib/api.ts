import { readEventStream } from "@/lib/http/read-event-stream";
// The console's only way to the API: same-origin fetches that carry the next-auth session cookie
// and `x-herald-environment` (which environment of the signed-in user; also the custom header a
// cross-site form cannot send). The routes are the operator API's own, so every console action
// goes through the same lib/ functions and scope checks as an API-key call.

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

let environmentId: string | null = null;

/** Set by the console's providers from the environment switcher, before any query runs. */
export function setRequestEnvironment(id: string) {
  environmentId = id;
}

async function failure(res: Response): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const b = (body ?? {}) as { code?: string; detail?: unknown };
  if (res.status === 422 && Array.isArray(b.detail)) {
    const fields = b.detail as FieldError[];
    const text = fields
      .map((f) => `${f.loc.filter((l) => l !== "body" && l !== "query").join(".")}: ${f.msg}`)
      .join("; ");
    return new ApiFailure(422, "validation", text, fields);
  }
  return new ApiFailure(res.status, b.code ?? `http_${res.status}`, typeof b.detail === "string" ? b.detail : res.statusText);
}

/** Message of a field's 422 error, if the API named that field. */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiFailure)) return undefined;
  return err.fields.find((f) => f.loc[f.loc.length - 1] === field || f.loc.includes(field))?.msg;
}

type Init = { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> };

export async function send(path: string, init: Init = {}): Promise<Response> {
  const res = await fetch(`/api/v1${path}`, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: {
      ...(environmentId ? { "x-herald-environment": environmentId } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal ?? null,
    cache: "no-store",
  });
  if (res.status === 401) {
    // The session ended (signed out elsewhere, expired): back to sign-in, then here again.
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(here)}`);
  }
  return res;
}

/** JSON in, JSON out; throws ApiFailure for anything but 2xx. */
export async function api<T>(path: string, init: Init = {}): Promise<T> {
  const res = await send(path, init);
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Reads a text/event-stream (task progress) until it ends or `signal` aborts. */
export async function streamEvents(path: string, onEvent: (event: { event: string; data: string }) => void, signal: AbortSignal): Promise<void> {
  const res = await send(path, { signal, headers: { accept: "text/event-stream" } });
  if (!res.ok || !res.body) throw await failure(res);
  await readEventStream(res.body, onEvent);
}
