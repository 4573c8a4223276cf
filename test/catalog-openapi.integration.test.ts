import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession } from "./helpers/portal";
import { startReceiver, type Receiver } from "./helpers/receiver";

// The event catalog published as an OpenAPI 3.1 document (GET /api/v1/environment/openapi.json
// and the portal's "Download OpenAPI"): a valid document, per the OpenAPI 3.1 schema, with one
// `webhooks` entry per event type carrying that type's own schema per version, and an envelope
// that the bodies Herald really delivers conform to.

const CATALOG = [
  {
    name: "invoice.paid",
    description: "An invoice was paid in full.",
    schemas: {
      "1": {
        type: "object",
        required: ["invoiceId", "amount"],
        properties: { invoiceId: { type: "string" }, amount: { type: "integer" } },
        examples: [{ invoiceId: "in_1", amount: 4200 }],
      },
      // A later version, written in the draft-07 style with local definitions.
      "2": {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        required: ["invoice"],
        properties: { invoice: { $ref: "#/definitions/invoice" } },
        definitions: { invoice: { type: "object", required: ["id"], properties: { id: { type: "string" }, lines: { type: "array", items: { $ref: "#/$defs/line" } } } } },
        $defs: { line: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } } } },
      },
    },
  },
  { name: "invoice.voided", description: "An invoice was voided.", deprecated: true, schemas: { "1": { type: "object", properties: { invoiceId: { type: "string", format: "uuid" } } } } },
  { name: "customer.created", description: "No schema yet." },
  { name: "beta.thing_done", description: "Behind a flag.", featureFlag: "beta", schemas: { "1": { type: "object", properties: { x: { type: "boolean" } } } } },
];

type Doc = {
  openapi: string;
  webhooks: Record<string, { post: { deprecated: boolean; parameters: { $ref: string }[]; requestBody: { content: { "application/json": { schema: { $ref?: string; oneOf?: { $ref: string }[] }; examples: Record<string, { value: unknown }> } } } } }>;
  components: { schemas: Record<string, Record<string, unknown>>; parameters: Record<string, { name: string; in: string }> };
};

function validatorFor(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "doc");
  return (ref: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `doc${ref}` });
    const ok = validate(value);
    return ok ? null : JSON.stringify(validate.errors);
  };
}

describe("the event catalog as OpenAPI 3.1", () => {
  let t: Tenant;
  let doc: Doc;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTenant("catalog-openapi");
    for (const et of CATALOG) expect((await t.api("POST", "/event-type", et)).status).toBe(201);
    const res = await t.api("GET", "/environment/openapi.json");
    expect(res.status).toBe(200);
    doc = res.body;
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? null, JSON.stringify(result.errors)).toBeNull();
    expect(result.valid).toBe(true);
  });

  it("has one webhook per event type, each with its own schemas, examples and the signature headers", async () => {
    const listed = await t.api("GET", "/event-type?limit=250&include_archived=true");
    const names = (listed.body.data as { name: string }[]).map((e) => e.name).sort();
    expect(Object.keys(doc.webhooks).sort()).toEqual(names);

    const paid = doc.webhooks["invoice.paid"]!.post;
    const body = paid.requestBody.content["application/json"];
    expect(body.schema.oneOf?.map((s) => s.$ref).sort()).toEqual(["#/components/schemas/invoice.paid.v1", "#/components/schemas/invoice.paid.v2"]);
    expect(doc.components.schemas["invoice.paid.v1.data"]).toEqual(CATALOG[0]!.schemas!["1"]);
    // Version 2's local references now point inside its component, and still resolve.
    const v2 = doc.components.schemas["invoice.paid.v2.data"] as { properties: { invoice: { $ref: string } } };
    expect(v2.properties.invoice.$ref).toBe("#/components/schemas/invoice.paid.v2.data/definitions/invoice");
    const check = validatorFor(doc);
    expect(check("#/components/schemas/invoice.paid.v2", { id: "msg_1", type: "invoice.paid", timestamp: "2026-01-01T00:00:00Z", version: 1, data: { invoice: { id: "in_9", lines: [{ sku: "a", qty: 2 }] } } })).toBeNull();
    expect(check("#/components/schemas/invoice.paid.v2", { id: "msg_1", type: "invoice.paid", timestamp: "2026-01-01T00:00:00Z", version: 1, data: { invoice: { id: "in_9", lines: [{ qty: 0 }] } } })).not.toBeNull();
    // Every example is a valid body of its webhook.
    for (const [name, hook] of Object.entries(doc.webhooks)) {
      const content = hook.post.requestBody.content["application/json"];
      for (const [version, ex] of Object.entries(content.examples)) {
        const ref = content.schema.$ref ?? `#/components/schemas/${name}.${version}`;
        expect(check(ref, ex.value), `${name} ${version}`).toBeNull();
      }
      expect(hook.post.parameters.map((p) => p.$ref.split("/").pop())).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    }
    expect(paid.requestBody.content["application/json"].examples.v1!.value).toMatchObject({ type: "invoice.paid", data: { invoiceId: "in_1", amount: 4200 } });
    expect(doc.webhooks["invoice.voided"]!.post.deprecated).toBe(true);
    expect(doc.webhooks["customer.created"]!.post.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/customer.created.v1");
  });

  it("describes the bodies Herald really delivers", async () => {
    const app = await t.api("POST", "/app", { name: "Doc check" });
    await t.api("POST", `/app/${app.body.id}/endpoint`, { url: receiver.url, filterTypes: ["invoice.paid"] });
    const payload = { invoice: { id: "in_real", lines: [{ sku: "x", qty: 1 }] } };
    expect((await t.api("POST", `/app/${app.body.id}/msg`, { eventType: "invoice.paid", payload })).status).toBe(202);
    await receiver.waitFor(1);
    const delivered = JSON.parse(receiver.received[0]!.body);
    const check = validatorFor(doc);
    expect(check("#/components/schemas/invoice.paid.v2", delivered)).toBeNull();
    expect(check("#/components/schemas/invoice.paid.v1", delivered)).not.toBeNull(); // v1's data differs
  });

  it("for a portal session: only what its link may see, in its application's payload format; the environment route is operator-only", async () => {
    const app = await t.api("POST", "/app", { name: "Raw receiver", payloadFormat: "raw" });
    const { session: token } = await portalSession(t, app.body.id);
    const denied = await fetch(`${process.env.HERALD_TEST_BASE_URL}/api/v1/environment/openapi.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(denied.status).toBe(403);
    const res = await fetch(`${process.env.HERALD_TEST_BASE_URL}/api/v1/portal/event-type/openapi.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const portalDoc = (await res.json()) as Doc;
    expect(Object.keys(portalDoc.webhooks).sort()).toEqual(["customer.created", "invoice.paid", "invoice.voided"]);
    expect((await new Validator().validate(portalDoc as unknown as Record<string, unknown>)).valid).toBe(true);
    // Raw format: the body is the payload itself, so the schema is the data schema.
    const content = portalDoc.webhooks["invoice.voided"]!.post.requestBody.content["application/json"];
    expect(content.schema.$ref).toBe("#/components/schemas/invoice.voided.v1.data");
  });
});
