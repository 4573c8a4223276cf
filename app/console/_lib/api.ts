import { createApiClient, jsonRequest, reach, type RequestOptions } from "@/lib/http/api-client";
// The console's only way to the API: same-origin fetches that carry the next-auth session cookie
// and `x-herald-environment` (which environment of the signed-in user; also the custom header a
// cross-site form cannot send). The routes are the operator API's own, so every console action
// goes through the same lib/ functions and scope checks as an API-key call.

export { ApiFailure, fieldError, type FieldError } from "@/lib/http/api-client";

let environmentId: string | null = null;

/** Set by the console's providers from the environment switcher, before any query runs. */
export function setRequestEnvironment(id: string) {
  environmentId = id;
}

async function send(path: string, init: RequestOptions = {}): Promise<Response> {
  const res = await reach(`/api/v1${path}`, {
    ...jsonRequest(init, environmentId ? { "x-herald-environment": environmentId } : {}),
    credentials: "same-origin",
  });
  if (res.status === 401) {
    // The session ended (signed out elsewhere, expired): back to sign-in, then here again.
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(here)}`);
  }
  return res;
}

export const client = createApiClient(send);
export const { api, streamEvents } = client;
