import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "./helpers/tenant";
import { portalSession, seedDelivery, type PortalClient } from "./helpers/portal";
import { waitForTask } from "./helpers/tasks";

// The portal's "Export these logs" is the API's export task started with a portal session: it
// exports only the session's application, with the log's filters (endpoint, event types, time,
// last response), follows the task and downloads the file; a read-only link may not start one,
// another application's endpoint is not found, and a bad filter is a 422 naming it.

describe("export from the portal", () => {
  let t: Tenant;
  let appId: string;
  let ep: string;
  let portal: PortalClient;

  beforeAll(async () => {
    t = await createTenant("portal-export");
    appId = (await t.api("POST", "/app", { name: "Exports" })).body.id;
    for (const name of ["order.paid", "order.created"]) await t.api("POST", "/event-type", { name, description: name });
    ep = (await t.api("POST", `/app/${appId}/endpoint`, { url: "https://hooks.example.com/x", disabled: true })).body.id;
    const at = new Date(Date.now() - 3600_000);
    for (const [eventType, attempts] of [
      ["order.paid", [{ ok: false, code: 500 }, { ok: true, code: 200 }]],
      ["order.paid", [{ ok: true, code: 200 }]],
      ["order.created", [{ ok: true, code: 200 }]],
    ] as const) {
      const msg = (await t.api("POST", `/app/${appId}/msg`, { eventType, payload: {} })).body;
      await seedDelivery(t, { appId, endpointId: ep, messageId: msg.id, eventType, status: "succeeded", attempts: [...attempts], at });
    }
    portal = await portalSession(t, appId);
  });

  it("exports the session's application with the log's filters, and the file downloads", async () => {
    const start = await portal.api("POST", `/app/${appId}/attempt/export`, { format: "csv", endpoint_id: ep, event_types: ["order.paid"] });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    const task = await waitForTask(portal.api, start.body.task_id);
    expect(task).toMatchObject({ kind: "export", status: "completed", result: { format: "csv", rows: 3 } });
    const csv = await (await fetch(task.result_url)).text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.includes("order.paid"))).toBe(true);
  });

  it("refuses a read-only link, another application's endpoint and a bad filter", async () => {
    const viewer = await portalSession(t, appId, { readOnly: true });
    expect((await viewer.api("POST", `/app/${appId}/attempt/export`, { format: "csv" })).status).toBe(403);
    const other = (await t.api("POST", "/app", { name: "Other exports" })).body.id;
    const otherEp = (await t.api("POST", `/app/${other}/endpoint`, { url: "https://hooks.example.com/o", disabled: true })).body.id;
    expect((await portal.api("POST", `/app/${other}/attempt/export`, { format: "csv" })).status).toBe(404);
    expect((await portal.api("POST", `/app/${appId}/attempt/export`, { format: "csv", endpoint_id: otherEp })).status).toBe(404);
    const bad = await portal.api("POST", `/app/${appId}/attempt/export`, { format: "csv", status_code: 42 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "status_code"]);
    const badFormat = await portal.api("POST", `/app/${appId}/attempt/export`, { format: "xlsx" });
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.detail[0].loc).toEqual(["body", "format"]);
  });
});
