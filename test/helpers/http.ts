// JSON over fetch, the way every suite (and the e2e fixtures) calls Herald's API: a body goes out
// as JSON (a string as is, for malformed-input tests), the answer comes back parsed (or as its
// raw text when it is not JSON).

// Tests read response fields freely; the API's own types are checked by the SDK suite.
export type ApiResult = { status: number; body: any; headers: Headers };

/** What the delivery and task helpers take: a tenant's, a stack's or a portal session's `api`. */
export type Api = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiResult>;

export async function requestJson(
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResult> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, headers: res.headers };
}
