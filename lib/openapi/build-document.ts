import type { z } from "zod";
import type { RouteHandler } from "../http/route";
import { responses, schemas } from "./components";
import { inputSchema, queryParameters, ref, type JsonSchema } from "./json-schema";
import { PATH_PARAMETERS, type RouteDoc } from "./route-doc";
import { routeModules } from "./route-modules";

// GET /api/v1/openapi.json: Herald's API as implemented, in OpenAPI 3.1, built from the route
// definitions themselves (lib/http/route.ts): each exported handler's auth, query and body
// schemas, write flag and `doc`. The Svix-compatible paths keep Svix's operation ids, so tooling
// built for Svix's document finds them.

const DESCRIPTION = `Herald's operator API: compatible with the Svix server's API (the official Svix SDKs work by
setting \`serverUrl\`), plus Herald's additions: async tasks, replay, exports, operational webhooks,
the portal's read models and the integrator tools (test URLs, herald listen, the event catalog as
OpenAPI). Operations marked \`x-svix-compatible\` are the Svix ones.

Authenticate with \`Authorization: Bearer <API key>\`; the portal uses a short-lived session token
instead, scoped to one application. Errors are \`{"code", "detail"}\`, or for 422
\`{"detail": [{"loc", "msg", "type"}]}\`. Lists are cursor-paginated: \`limit\` (1-250, default 50),
\`iterator\` (the \`iterator\` or \`prevIterator\` of a previous page) and \`order\`; responses carry
\`data\`, \`done\`, \`iterator\` and \`prevIterator\`. See docs/api.md.`;

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type Method = (typeof METHODS)[number];

/** One documented operation: where it is and the definition of its handler. */
export type RouteOperation = { path: string; method: Method; spec: RouteHandler["definition"]; doc: RouteDoc };

/** Every route handler exported by the route files, with its definition. */
export function routeOperations(): RouteOperation[] {
  const out: RouteOperation[] = [];
  for (const [path, mod] of routeModules)
    for (const method of METHODS) {
      const handler = mod[method.toUpperCase()] as Partial<RouteHandler> | undefined;
      if (!handler) continue;
      const spec = handler.definition;
      if (!spec?.doc) throw new Error(`${method.toUpperCase()} ${path} has no OpenAPI definition: build it with route({ doc, ... })`);
      out.push({ path, method, spec, doc: spec.doc });
    }
  return out;
}

function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    description: PATH_PARAMETERS[m[1]!] ?? m[1],
    schema: { type: "string", maxLength: 256 },
  }));
}

/** The document's security requirement for a route: who may call it. */
export function security(op: Pick<RouteOperation, "spec" | "doc">): JsonSchema[] {
  if (op.doc.linkAuth) return [{ apiKey: [] }, { portalSession: [] }, {}];
  switch (op.spec.auth) {
    case "operator":
      return [{ apiKey: [] }];
    case "any":
      return [{ apiKey: [] }, { portalSession: [] }];
    case "public":
      return [];
  }
}

/** POSTs that change something honour the idempotency-key header (lib/http/route.ts). */
export const isIdempotent = (op: Pick<RouteOperation, "spec" | "method">) => Boolean(op.spec.write) && op.method === "post";

function operationObject(op: RouteOperation): JsonSchema {
  const { spec, doc, path } = op;
  const hasPath = path.includes("{");
  const parameters = [
    ...pathParameters(path),
    ...(spec.query ? queryParameters(spec.query as z.ZodObject) : []),
    ...(isIdempotent(op)
      ? [
          {
            name: "idempotency-key",
            in: "header",
            required: false,
            description: "A retry with the same key and request within 24 h returns the original response (idempotent-replayed: true); the same key with another request is a 409",
            schema: { type: "string", maxLength: 256 },
          },
        ]
      : []),
  ];
  const success: JsonSchema = {};
  for (const [status, out] of Object.entries(doc.responses)) {
    if (out === null) success[status] = { description: "No content" };
    else if (typeof out === "string") success[status] = { description: out, content: { "application/json": { schema: ref(out) } } };
    else success[status] = out;
  }
  const errors: JsonSchema = {};
  const authed = spec.auth !== "public" || doc.linkAuth;
  if (spec.body) errors["400"] = errorRef("BadRequest");
  if (authed) errors["401"] = errorRef("Unauthorized");
  if (authed) errors["403"] = errorRef("Forbidden");
  if (hasPath) errors["404"] = errorRef("NotFound");
  if (op.method === "post" || op.method === "put" || op.method === "patch") errors["409"] = errorRef("Conflict");
  if (spec.body) errors["413"] = errorRef("PayloadTooLarge");
  if (spec.body || spec.query || hasPath) errors["422"] = errorRef("ValidationError");
  errors["503"] = errorRef("ServiceUnavailable");
  return {
    operationId: doc.id,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.svix ? { "x-svix-compatible": true } : {}),
    security: security(op),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { "application/json": { schema: inputSchema(spec.body) } } } } : {}),
    responses: { ...success, ...errors },
  };
}

const errorRef = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });

let cached: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const ops = routeOperations();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) (paths[op.path] ??= {})[op.method] = operationObject(op);
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Herald API",
      version: "1.0.0",
      description: DESCRIPTION,
      license: { name: "Schemas derived from the Svix server's OpenAPI document (MIT)", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This Herald server" }],
    tags: [...new Set(ops.map((o) => o.doc.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses,
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An operator API key (npm run up prints one; npm run api-key makes more)" },
        portalSession: { type: "http", scheme: "bearer", description: "A portal session token, from POST /api/v1/auth/portal-session" },
      },
    },
  };
  return cached;
}
