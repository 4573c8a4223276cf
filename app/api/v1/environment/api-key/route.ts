import { route } from "@/lib/http/route";
import { listQuery } from "@/lib/http/pagination";
import { ApiKeyIn, createEnvironmentApiKey, listApiKeys } from "@/lib/environments/api-keys";

// GET /api/v1/environment/api-key — the environment's API keys, newest first (never the keys themselves)
export const GET = route(
  {
    doc: {
      id: "herald.environment.api-key.list",
      tag: "Environment",
      summary: "The environment's API keys, newest first, revoked ones included: name, first characters, created, last used",
      responses: { 200: "ListResponse_ApiKeyOut_" },
    },
    auth: "operator",
    query: listQuery,
  },
  ({ scope, query }) => listApiKeys(scope, query),
);

// POST /api/v1/environment/api-key — mint an API key; the answer is the only time the key is shown
export const POST = route(
  {
    doc: {
      id: "herald.environment.api-key.create",
      tag: "Environment",
      summary: "Create an API key for the environment (owners only: a key acts as owner); `key` is in this answer only (Herald keeps its hash)",
      responses: { 201: "ApiKeyCreatedOut" },
    },
    auth: "operator",
    write: true,
    status: 201,
    body: ApiKeyIn,
  },
  ({ principal, body }) => createEnvironmentApiKey(principal, body),
);
