import { z } from "zod";
import { responses, schemas } from "./components";
import { inputSchema, queryParameters, ref, type JsonSchema } from "./json-schema";
import { errorRef, operations, PATH_PARAMETERS, type Operation } from "./operations";

// GET /api/v1/openapi.json: Herald's API as implemented, in OpenAPI 3.1. The Svix-compatible
// paths keep Svix's operation ids, so tooling built for Svix's document finds them.

const DESCRIPTION = `Herald's operator API: compatible with the Svix server's API (the official Svix SDKs work by
setting \`serverUrl\`), plus Herald's additions: async tasks, replay, exports, operational webhooks
and the portal's read models. Operations marked \`x-svix-compatible\` are the Svix ones.

Authenticate with \`Authorization: Bearer <API key>\`; the portal uses a short-lived session token
instead, scoped to one application. Errors are \`{"code", "detail"}\`, or for 422
\`{"detail": [{"loc", "msg", "type"}]}\`. Lists are cursor-paginated: \`limit\` (1-250, default 50),
\`iterator\` (the \`iterator\` or \`prevIterator\` of a previous page) and \`order\`; responses carry
\`data\`, \`done\`, \`iterator\` and \`prevIterator\`. See docs/api.md.`;

function isZod(body: Operation["body"]): body is z.ZodType {
  return body instanceof z.ZodType;
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

function security(auth: Operation["auth"]): JsonSchema[] {
  switch (auth) {
    case "operator":
      return [{ apiKey: [] }];
    case "any":
      return [{ apiKey: [] }, { portalSession: [] }];
    case "link":
      return [{ apiKey: [] }, { portalSession: [] }, {}];
    case "public":
      return [];
  }
}

function operationObject(op: Operation): JsonSchema {
  const parameters = [
    ...pathParameters(op.path),
    ...(op.query ? queryParameters(op.query) : []),
    ...(op.idempotent
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
  for (const [status, out] of Object.entries(op.success)) {
    if (out === null) success[status] = { description: "No content" };
    else if (typeof out === "string") success[status] = { description: out, content: { "application/json": { schema: ref(out) } } };
    else success[status] = out;
  }
  const errors: JsonSchema = {};
  if (op.body) errors["400"] = errorRef("BadRequest");
  if (op.auth !== "public") errors["401"] = errorRef("Unauthorized");
  if (op.auth !== "public") errors["403"] = errorRef("Forbidden");
  if (op.path.includes("{")) errors["404"] = errorRef("NotFound");
  if (op.method === "post" || op.method === "put" || op.method === "patch") errors["409"] = errorRef("Conflict");
  if (op.body) errors["413"] = errorRef("PayloadTooLarge");
  if (op.body || op.query || op.path.includes("{")) errors["422"] = errorRef("ValidationError");
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.svix ? { "x-svix-compatible": true } : {}),
    security: security(op.auth),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: isZod(op.body) ? inputSchema(op.body) : op.body } } } }
      : {}),
    responses: { ...success, ...errors },
  };
}

let cached: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Herald API",
      version: "1.0.0",
      description: DESCRIPTION,
      license: { name: "Schemas derived from the Svix server's OpenAPI document (MIT)", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This Herald server" }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
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
