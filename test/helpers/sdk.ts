import { ApiException, Svix } from "svix";
import { baseUrl } from "./tenant";

// The official Svix SDK pointed at the test server, with every HTTP exchange recorded so a test
// can also check what the SDK cannot show: status codes (201 vs 200, 202, 204) and headers.

export type Exchange = { method: string; path: string; query: string; status: number; headers: Headers };

export function recordingSvix(token: string) {
  const log: Exchange[] = [];
  const recorder: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input.toString());
    log.push({ method: init?.method ?? "GET", path: url.pathname, query: url.search, status: res.status, headers: res.headers });
    return res;
  };
  return {
    // No client-side retries: a 5xx must show up as a failure, not be papered over.
    svix: new Svix(token, { serverUrl: baseUrl(), fetch: recorder, retryScheduleInMs: [] }),
    log,
    last(): Exchange {
      const e = log[log.length - 1];
      if (!e) throw new Error("no request was made");
      return e;
    },
  };
}

/** The ApiException a failing SDK call throws (fails the test when the call succeeds). */
export async function sdkError(call: Promise<unknown>): Promise<ApiException<{ code?: string; detail?: unknown }>> {
  try {
    await call;
  } catch (e) {
    if (e instanceof ApiException) return e as ApiException<{ code?: string; detail?: unknown }>;
    throw e;
  }
  throw new Error("expected the SDK call to fail with an ApiException, but it succeeded");
}

/** Polls `read` until `done(value)` (bounded); returns the last value either way. */
export async function pollUntil<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}
