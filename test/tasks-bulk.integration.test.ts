import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { deleteExpiredExports, exportPath } from "@/lib/exports/export-files";
import { CSV_COLUMNS } from "@/lib/exports/write-export";
import { createTenant, baseUrl, type Tenant } from "./helpers/tenant";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { seedHistory } from "./helpers/seed-history";
import { waitForTask } from "./helpers/tasks";

// Bulk retry of dead-lettered deliveries by filter, and exports of the delivery log with their
// signed, expiring download links and 24 h file retention.

const HOUR = 3_600_000;

describe("bulk retry and export", () => {
  let t: Tenant;
  let other: Tenant;
  let rx: Receiver;
  let appId: string;
  let epId: string;

  beforeAll(async () => {
    t = await createTenant("tasks-bulk");
    other = await createTenant("tasks-bulk-other");
    rx = await startReceiver();
    appId = (await t.api("POST", "/app", { name: "Bulk" })).body.id;
    expect((await t.api("POST", "/event-type", { name: "user.created", description: "u" })).status).toBe(201);
    epId = (await t.api("POST", `/app/${appId}/endpoint`, { url: rx.url })).body.id;
  });
  afterAll(async () => {
    await rx.close();
  });

  it("re-attempts only the dead letters that match the filter (status code), same webhook-id", async () => {
    const seeded = await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "user.created",
      count: 20,
      startAt: new Date(Date.now() - HOUR),
      delivery: { endpointId: epId, status: "failed", lastStatusCode: (i) => (i % 2 === 0 ? 500 : 404) },
    });
    const with500 = seeded.messageIds.filter((_, i) => i % 2 === 0);

    const bad = await t.api("POST", `/app/${appId}/bulk-retry`, { status_code: 99 });
    expect(bad.status).toBe(422);
    // A misspelt field is refused, not dropped (which would retry the whole application).
    const misspelt = await t.api("POST", `/app/${appId}/bulk-retry`, { endpointId: epId });
    expect(misspelt.status).toBe(422);
    expect(JSON.stringify(misspelt.body.detail)).toContain("endpointId");
    const res = await t.api("POST", `/app/${appId}/bulk-retry`, { endpoint_id: epId, status_code: 500 });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("pending");
    expect(res.headers.get("location")).toBe(`${baseUrl()}/api/v1/tasks/${res.body.task_id}`);
    const task = await waitForTask(t.api, res.body.task_id);
    expect(task).toMatchObject({
      kind: "bulk_retry",
      status: "completed",
      done: 10,
      total: 10,
      result: { retried: 10, skipped: 0 },
    });

    await rx.waitFor(10);
    expect(new Set(rx.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(with500));
    const still = await db.delivery.count({ where: { endpointId: epId, status: "failed", lastStatusCode: 404 } });
    expect(still).toBe(10);

    // The rest by status class, app-wide.
    const rest = await t.api("POST", `/app/${appId}/bulk-retry`, { status_code_class: 400 });
    const second = await waitForTask(t.api, rest.body.task_id);
    expect(second).toMatchObject({ endpoint_id: null, done: 10, result: { retried: 10 } });
    await rx.waitFor(20);
  });

  it("a bulk retry or a recover on an open circuit makes its first delivery the probe at once, not after the cool-down", async () => {
    const app = (await t.api("POST", "/app", { name: "Back after an outage" })).body.id as string;
    const back = await startReceiver();
    try {
      const endpoints: string[] = [];
      const seededIds: string[][] = [];
      for (let i = 0; i < 2; i++) {
        const ep = (await t.api("POST", `/app/${app}/endpoint`, { url: back.url })).body.id as string;
        endpoints.push(ep);
        const seeded = await seedHistory(db, {
          environmentId: t.environmentId,
          applicationId: app,
          eventType: "user.created",
          count: 5,
          startAt: new Date(Date.now() - HOUR),
          delivery: { endpointId: ep, status: "failed", lastStatusCode: () => 503 },
        });
        seededIds.push(seeded.messageIds);
        // An hour-long outage left the circuit open: its next probe is 10 minutes away.
        await db.endpoint.update({
          where: { id: ep },
          data: {
            circuitState: "open",
            circuitOpenedAt: new Date(),
            failingSince: new Date(Date.now() - HOUR),
            consecutiveFailures: 40,
          },
        });
        const before = (await t.api("GET", `/app/${app}/endpoint/${ep}`)).body;
        expect(before.circuitState).toBe("open");
        expect(Date.parse(before.circuitNextProbeAt as string) - Date.now()).toBeGreaterThan(5 * 60_000);
      }
      const [viaBulk, viaRecover] = endpoints as [string, string];

      // Bulk retry ("retry all" of the endpoint's failures).
      const started = Date.now();
      const bulk = await t.api("POST", `/app/${app}/bulk-retry`, { endpoint_id: viaBulk });
      expect(bulk.status).toBe(202);
      await waitForTask(t.api, bulk.body.task_id);
      await back.waitFor(5, 15_000);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(new Set(back.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(seededIds[0]));
      expect((await t.api("GET", `/app/${app}/endpoint/${viaBulk}`)).body).toMatchObject({
        circuitState: "closed",
        circuitOpenedAt: null,
        circuitNextProbeAt: null,
      });

      // Recover.
      const rec = await t.api("POST", `/app/${app}/endpoint/${viaRecover}/recover`, {
        since: new Date(Date.now() - 2 * HOUR).toISOString(),
      });
      expect(rec.status).toBe(202);
      await waitForTask(t.api, rec.body.id);
      await back.waitFor(10, 15_000);
      expect(new Set(back.received.slice(5).map((r) => r.headers["webhook-id"]))).toEqual(new Set(seededIds[1]));
      expect((await t.api("GET", `/app/${app}/endpoint/${viaRecover}`)).body.circuitState).toBe("closed");
    } finally {
      await back.close();
    }
  });

  it("exports the delivery log as CSV and NDJSON behind signed, expiring links; files expire", async () => {
    await seedHistory(db, {
      environmentId: t.environmentId,
      applicationId: appId,
      eventType: "user.created",
      count: 120,
      startAt: new Date(Date.now() - 3 * HOUR),
      delivery: { endpointId: epId, status: (i) => (i % 4 === 0 ? "failed" : "succeeded") },
      attempts: { url: rx.url, responseStatus: (i) => (i % 4 === 0 ? 503 : 200) },
    });
    const window = {
      since: new Date(Date.now() - 4 * HOUR).toISOString(),
      until: new Date(Date.now() - 2 * HOUR).toISOString(),
    };

    const csvStart = await t.api("POST", `/app/${appId}/attempt/export`, {
      ...window,
      format: "csv",
      status_code_class: 500,
    });
    expect(csvStart.status).toBe(202);
    const csvTask = await waitForTask(t.api, csvStart.body.task_id);
    expect(csvTask).toMatchObject({
      kind: "export",
      status: "completed",
      done: 30,
      total: 30,
      result: { format: "csv", rows: 30 },
    });
    expect(csvTask.result.file).toBeUndefined();
    expect(csvTask.result_url).toContain(`/api/v1/tasks/${csvTask.id}/result?token=`);

    // The signed link needs no header (a browser download).
    const dl = await fetch(csvTask.result_url);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toContain("text/csv");
    expect(dl.headers.get("content-disposition")).toContain(`${csvTask.id}.csv`);
    const lines = (await dl.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(31);
    expect(lines.slice(1).every((l) => l.includes(",fail,503,"))).toBe(true);

    const token = new URL(csvTask.result_url).searchParams.get("token")!;
    expect((await fetch(`${baseUrl()}/api/v1/tasks/${csvTask.id}/result?token=${token.slice(0, -2)}zz`)).status).toBe(
      401,
    );
    expect((await fetch(`${baseUrl()}/api/v1/tasks/${csvTask.id}/result`)).status).toBe(401);
    // An events link is not a download link.
    const eventsToken = new URL(csvTask.events_url).searchParams.get("token")!;
    expect((await fetch(`${baseUrl()}/api/v1/tasks/${csvTask.id}/result?token=${eventsToken}`)).status).toBe(401);
    // With a key instead of the link: the owner gets it, another environment does not.
    expect((await t.api("GET", `/tasks/${csvTask.id}/result`)).status).toBe(200);
    expect((await other.api("GET", `/tasks/${csvTask.id}/result`)).status).toBe(404);

    const ndStart = await t.api("POST", `/app/${appId}/attempt/export`, {
      ...window,
      endpoint_id: epId,
      with_content: true,
    });
    const ndTask = await waitForTask(t.api, ndStart.body.task_id);
    expect(ndTask.result).toMatchObject({ format: "ndjson", rows: 120 });
    const rows = (await (await fetch(ndTask.result_url)).text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(120);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort());
    expect(rows[0]).toMatchObject({ endpointId: epId, request: { body: JSON.stringify({ seq: 0 }) } });

    // After the retention the worker's cleanup deletes the file; the link then says 410.
    expect(existsSync(exportPath(ndTask.id, "ndjson"))).toBe(true);
    expect(await deleteExpiredExports(Date.now() + 25 * HOUR)).toBeGreaterThanOrEqual(2);
    expect(existsSync(exportPath(ndTask.id, "ndjson"))).toBe(false);
    const expired = await t.api("GET", `/tasks/${ndTask.id}/result`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe("result_expired");

    // Not an export / not finished.
    const notExport = await t.api("GET", `/tasks?kind=bulk_retry&limit=1`);
    expect((await t.api("GET", `/tasks/${notExport.body.data[0].id}/result`)).status).toBe(409);
  });
});
