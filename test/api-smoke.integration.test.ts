import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";

describe("operator API basics", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant();
  });
  afterAll(() => undefined);

  it("creates an application, an event type and an endpoint, then publishes", async () => {
    const app = await t.api("POST", "/app", { name: "Acme", uid: "acme" });
    expect(app.status).toBe(201);
    expect(app.body.id).toMatch(/^app_/);
    expect((await t.api("POST", "/event-type", { name: "invoice.paid", description: "Paid" })).status).toBe(201);
    const ep = await t.api("POST", "/app/acme/endpoint", { url: "https://example.com/hook", filterTypes: ["invoice.paid"] });
    expect(ep.status).toBe(201);
    expect(ep.body.filterTypes).toEqual(["invoice.paid"]);
    expect(ep.body.eventTypes).toEqual(["invoice.paid"]);
    const msg = await t.api("POST", "/app/acme/msg", { eventType: "invoice.paid", payload: { id: "inv_1" } });
    expect(msg.status).toBe(202);
    expect(msg.body.id).toMatch(/^msg_/);
  });

  it("rejects a missing or wrong API key with 401", async () => {
    const res = await fetch(`${process.env.HERALD_TEST_BASE_URL}/api/v1/app`, { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "authentication_failed" });
  });
});
