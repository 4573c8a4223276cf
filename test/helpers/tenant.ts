import { Svix } from "svix";
import { db } from "@/lib/db";
import { createApiKey } from "@/lib/environments/api-keys";
import { createEnvironment } from "@/lib/environments/ensure-environment";

// A fresh operator tenant per test file: its own environment and API key, so suites running in
// parallel against the shared test server never see each other's data.

export const baseUrl = () => {
  const url = process.env.HERALD_TEST_BASE_URL;
  if (!url) throw new Error("HERALD_TEST_BASE_URL is not set: run through npm test");
  return url;
};

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

export async function createTenant(name = "test") {
  const env = await createEnvironment(name);
  const { key } = await createApiKey(env.id, "test");
  const url = baseUrl();

  /** fetch against the API with this tenant's key; JSON in, parsed JSON out. */
  async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
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
    // Tests read response fields freely; the API's own types are checked by the SDK suite.
    return { status: res.status, body: json as any, headers: res.headers };
  }

  return {
    environmentId: env.id,
    apiKey: key,
    api,
    svix: new Svix(key, { serverUrl: url }),
    scope: { environmentId: env.id },
    db,
  };
}
