import { Svix } from "svix";
import { db } from "@/lib/db";
import { createApiKey } from "@/lib/environments/api-keys";
import { createEnvironment } from "@/lib/environments/ensure-environment";
import { requestJson } from "./http";

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
  const { id: apiKeyId, key } = await createApiKey(env.id, "test");
  const url = baseUrl();

  /** fetch against the API with this tenant's key; JSON in, parsed JSON out. */
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    requestJson(method, `${url}/api/v1${path}`, key, body, headers);

  return {
    environmentId: env.id,
    apiKey: key,
    apiKeyId,
    api,
    svix: new Svix(key, { serverUrl: url }),
    scope: { environmentId: env.id },
    db,
  };
}
