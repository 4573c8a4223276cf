import type { Principal, Scope } from "../auth/principal";
import { db } from "../db";
import { ENVELOPE_VERSION } from "../delivery/build-request";
import { environmentSchedule } from "../environments/environment-settings";
import { env } from "../env";
import { portalCatalog, type PortalEventType } from "../portal/portal-catalog";
import type { JsonSchema } from "./json-schema";

// The event catalog as an OpenAPI 3.1 document (its `webhooks` section): one entry per event
// type, with the envelope Herald sends (lib/delivery/build-request.ts) and `data` from the type's
// JSON Schema for each version, an example, and the Standard Webhooks headers. Built from the
// same rows and the same example generator that the portal's catalog and send-example use, so
// the published catalog and what is delivered cannot drift apart.
//   GET /api/v1/environment/openapi.json       operator key: the whole catalog
//   GET /api/v1/portal/event-type/openapi.json  a portal session: the catalog that session sees,
//                                               in its application's payload format

const EXAMPLE_ID = "msg_01jf3v6t2c8kq9x0m5r7a4b2yd";
const EXAMPLE_TIME = "2026-01-15T10:30:00.000Z";

/** A component name for an event type's schema (OpenAPI allows [A-Za-z0-9._-]). */
const componentName = (eventType: string, version: string, part: "data" | "envelope") =>
  `${eventType.replace(/[^A-Za-z0-9._-]/g, "_")}.v${version}${part === "envelope" ? "" : ".data"}`;

/**
 * A stored schema, placed at #/components/schemas/<name>: its local references
 * (#/definitions/…, #/$defs/…) are rewritten to point inside it, and its own $schema/$id go (the
 * document's dialect, JSON Schema 2020-12, applies).
 */
function relocate(schema: Record<string, unknown>, name: string): JsonSchema {
  const base = `#/components/schemas/${name}`;
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== "object") return node;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(node as JsonSchema)) {
      if (top && (k === "$schema" || k === "$id")) continue;
      out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#") ? base + v.slice(1) : walk(v, false);
    }
    return out;
  };
  return walk(schema, true) as JsonSchema;
}

function envelopeSchema(eventType: string, dataRef: string, version: string): JsonSchema {
  return {
    type: "object",
    title: `${eventType} (schema version ${version})`,
    required: ["id", "type", "timestamp", "version", "data"],
    properties: {
      id: { type: "string", description: "The message id; also the webhook-id header. Identical on every retry: deduplicate on it." },
      type: { type: "string", const: eventType },
      timestamp: { type: "string", format: "date-time", description: "When the message was published (not when this attempt was made)" },
      version: { type: "integer", const: ENVELOPE_VERSION, description: "The envelope format" },
      data: { $ref: dataRef },
      previous: { type: "object", description: "Old values of the fields that changed, when the publisher sent them" },
    },
  };
}

const HEADERS: Record<string, JsonSchema> = {
  "webhook-id": {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The message id (msg_…), the same on every retry of this message: deduplicate on it. Also sent as svix-id.",
    schema: { type: "string" },
  },
  "webhook-timestamp": {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds of this attempt. Refuse requests more than 5 minutes off (replays). Also sent as svix-timestamp.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  "webhook-signature": {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Space-separated signatures: v1,<base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` keyed with the decoded whsec_ secret>, or v1a,<base64 ed25519 signature> for ed25519 endpoints. Two during a secret rotation. Verify on the raw body with a Standard Webhooks library. Also sent as svix-signature.",
    schema: { type: "string" },
  },
};

function describe(scheduleSeconds: number[], requestTimeoutMs: number, raw: boolean): string {
  const steps = scheduleSeconds.map((s) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`));
  return `The events this Herald environment sends to your endpoints, one entry per event type under \`webhooks\`.

Delivery contract:
- At-least-once: a message is retried until your endpoint acknowledges it; deduplicate on \`webhook-id\`.
- Ordering is best effort: do not infer order from timestamps.
- Retries: immediately, then after ${steps.join(", ")} (each ±20%), then the delivery is dead-lettered.
- Acknowledge with any 2xx within ${requestTimeoutMs / 1000} s; answer fast and do the work afterwards.
- Signed with Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`).

${raw ? "This application receives the published payload itself as the body (no envelope)." : "Bodies are Herald's envelope `{id, type, timestamp, version, data, previous}`; `data` follows the event type's schema."}`;
}

export function buildCatalogDocument(input: {
  title: string;
  eventTypes: PortalEventType[];
  raw: boolean;
  retrySchedule: number[];
  requestTimeoutMs: number;
}): JsonSchema {
  const schemas: Record<string, JsonSchema> = {};
  const webhooks: Record<string, JsonSchema> = {};
  for (const et of input.eventTypes) {
    const versions = et.versions.length > 0 ? et.versions : [{ version: "1", schema: { type: "object" }, example: {}, exampleSource: "generated" }];
    const variants: JsonSchema[] = [];
    const examples: Record<string, JsonSchema> = {};
    for (const v of versions) {
      const dataName = componentName(et.name, v.version, "data");
      schemas[dataName] = relocate(v.schema, dataName);
      const dataRef = `#/components/schemas/${dataName}`;
      if (input.raw) variants.push({ $ref: dataRef });
      else {
        const envName = componentName(et.name, v.version, "envelope");
        schemas[envName] = envelopeSchema(et.name, dataRef, v.version);
        variants.push({ $ref: `#/components/schemas/${envName}` });
      }
      const body = input.raw
        ? v.example
        : { id: EXAMPLE_ID, type: et.name, timestamp: EXAMPLE_TIME, version: ENVELOPE_VERSION, data: v.example };
      examples[`v${v.version}`] = { summary: `Schema version ${v.version}${v.exampleSource === "generated" ? " (generated from the schema)" : ""}`, value: body };
    }
    webhooks[et.name] = {
      post: {
        operationId: et.name,
        summary: et.description.split("\n")[0]?.slice(0, 120) || et.name,
        description: et.description,
        deprecated: et.deprecated,
        ...(et.archived ? { "x-archived": true } : {}),
        ...(et.featureFlag ? { "x-feature-flag": et.featureFlag } : {}),
        parameters: Object.keys(HEADERS).map((h) => ({ $ref: `#/components/parameters/${h}` })),
        requestBody: {
          required: true,
          content: { "application/json": { schema: variants.length === 1 ? variants[0] : { oneOf: variants }, examples } },
        },
        responses: {
          "2XX": { description: `Acknowledged (within ${input.requestTimeoutMs / 1000} s). Nothing else counts as delivered.` },
          "410": { description: "Gone: Herald disables the endpoint and stops sending" },
          default: { description: "Any other answer, or none in time: retried on the schedule (4xx other than 408/429 are not retried)" },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: input.title, version: "1", description: describe(input.retrySchedule, input.requestTimeoutMs, input.raw) },
    webhooks,
    components: { schemas, parameters: HEADERS },
  };
}

/** The catalog document for this principal: everything (operator) or what a portal session sees. */
export async function catalogDocument(principal: Principal, scope: Scope) {
  const [catalog, environment, app] = await Promise.all([
    portalCatalog(principal, scope),
    db.environment.findUnique({ where: { id: scope.environmentId }, select: { name: true, retrySchedule: true } }),
    scope.applicationId
      ? db.application.findFirst({ where: { id: scope.applicationId, environmentId: scope.environmentId }, select: { payloadFormat: true } })
      : null,
  ]);
  return buildCatalogDocument({
    title: `${environment?.name ?? "Herald"} webhooks`,
    eventTypes: catalog.data,
    raw: app?.payloadFormat === "raw",
    retrySchedule: environmentSchedule(environment?.retrySchedule ?? []),
    requestTimeoutMs: env().HERALD_REQUEST_TIMEOUT_MS,
  });
}
