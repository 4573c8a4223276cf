import { startReceiver } from "../test/helpers/receiver";
import type { Page } from "@playwright/test";
import { expect, openPortal, seedHistory, shot, test, until } from "./fixtures";

/** Sets a multi-select filter ("Status", "Event type") to exactly these options, then closes it. */
async function choose(page: Page, filter: string, options: string[]) {
  const button = page.getByRole("button", { name: new RegExp(`^${filter} `) });
  await button.click();
  const panel = page.getByRole("group", { name: filter, exact: true });
  // The options come from the catalog: wait for them before reading which are checked.
  await expect(panel.getByRole("checkbox").first()).toBeVisible();
  for (const box of await panel.getByRole("checkbox").all()) {
    const name = (await box.evaluate((el) => el.parentElement?.textContent ?? "")).trim();
    if (options.includes(name) !== (await box.isChecked())) await box.click();
  }
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
}

// Delivery logs: filters (endpoint, event types, statuses, time range; kept in the URL), search by
// the start of a message id or event id, absolute times on hover, cursor pagination; the attempt inspector with the exact request and response and
// the timeline; Retry (same webhook-id) vs Replay (a new message linked to the original), and
// range replay with its estimate, confirmation, live progress and cancel.

test("filters, searches and pages through the delivery log", async ({ page, operator }) => {
  const app = await operator.createApp("Logs Co");
  const a = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/a", description: "A", disabled: true });
  const b = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/b", description: "B", disabled: true });
  type Item = { eventType: string; status: "failed" | "pending" | "succeeded"; codes: number[]; hoursAgo: number };
  const itemsA = Array.from({ length: 60 }, (_, i): Item => ({
    eventType: i % 3 === 0 ? "order.paid" : "order.created",
    status: i % 5 === 0 ? "failed" : i % 7 === 0 ? "pending" : "succeeded",
    codes: i % 5 === 0 ? [500, 0, 503] : i % 7 === 0 ? [] : [200],
    hoursAgo: 2 + i,
  }));
  await seedHistory(operator, app.id, a.id, itemsA);
  const [special] = await seedHistory(operator, app.id, b.id, [{ eventType: "order.paid", status: "failed", codes: [410], hoursAgo: 0.5, eventId: "evt-special-42" }]);
  const dead = itemsA.filter((x) => x.status === "failed").length + 1;

  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(51); // header + 50
  await expect(page.getByText("Newest · updates live")).toBeVisible();
  await shot(page, "portal-logs");

  // Pages: older, then back to the newest.
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(rows).toHaveCount(1 + 61 - 50);
  await expect(page.getByRole("button", { name: "Older →" })).toBeDisabled();
  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(rows).toHaveCount(51);

  // Every relative time has the absolute one on hover.
  const firstTime = page.getByRole("table").locator("time").first();
  await expect(firstTime).toHaveAttribute("title", /\d{4}/);
  expect(new Date((await firstTime.getAttribute("datetime"))!).getTime()).toBeGreaterThan(Date.now() - 3600_000);

  // Status.
  await choose(page, "Status", ["Dead-lettered"]);
  await expect(rows).toHaveCount(1 + dead);
  await expect(page.getByRole("table").getByText("Dead-lettered")).toHaveCount(dead);
  expect(page.url()).toContain("status=dead_lettered");
  // Several statuses at once; the URL keeps them, so a link reproduces the view.
  const pendingCount = itemsA.filter((x) => x.status === "pending").length;
  await choose(page, "Status", ["Dead-lettered", "Pending"]);
  await expect(rows).toHaveCount(1 + dead + pendingCount);
  expect(decodeURIComponent(page.url())).toContain("status=dead_lettered,pending");
  await shot(page, "portal-logs-multi-status", { doc: true, fullPage: false });
  await page.goto(page.url());
  await expect(rows).toHaveCount(1 + dead + pendingCount);
  await expect(page.getByRole("button", { name: /^Status / })).toHaveAccessibleName("Status Dead-lettered, Pending");
  await choose(page, "Status", ["Dead-lettered"]);
  await expect(rows).toHaveCount(1 + dead);
  // Status + endpoint.
  await page.getByRole("combobox", { name: "Endpoint", exact: true }).selectOption({ label: "B — https://hooks.example.com/b" });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("table").getByText("410")).toBeVisible();
  // Event type + time range.
  await page.getByRole("button", { name: "Reset filters" }).click();
  await expect(rows).toHaveCount(51);
  await choose(page, "Event type", ["order.paid"]);
  await page.getByRole("button", { name: "Last 24 h" }).click();
  const expected = itemsA.filter((x, i) => x.eventType === "order.paid" && 2 + i < 24).length + 1;
  await expect(rows).toHaveCount(1 + expected);
  await shot(page, "portal-logs-filtered");
  // Both event types: every delivery of the last 24 hours.
  await choose(page, "Event type", ["order.paid", "order.created"]);
  await expect(rows).toHaveCount(1 + itemsA.filter((_x, i) => 2 + i < 24).length + 1);
  expect(decodeURIComponent(page.url())).toMatch(/eventType=order\.paid,order\.created/);

  // Search by event id, then by message id.
  await page.getByRole("button", { name: "Reset filters" }).click();
  await page.getByLabel("Message id or event id").fill("evt-special-42");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("table").getByText("evt-special-42", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(rows).toHaveCount(51);
  await page.getByLabel("Message id or event id").fill(special!.msgId);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(2);
  // The start of an id is enough. (Clearing re-renders the filters: wait for the full log first.)
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(rows).toHaveCount(51);
  await page.getByLabel("Message id or event id").fill("evt-spec");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(rows).toHaveCount(51);
  await page.getByLabel("Message id or event id").fill(special!.msgId.slice(0, -6));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rows).toHaveCount(2);

  // Search inside payloads (the seeded payloads are {seeded, hoursAgo}: only one has 0.5).
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(rows).toHaveCount(51);
  await expect(page.getByText("Searches the last 7 days")).toBeVisible();
  const payloadBox = page.getByLabel("Text in the payload");
  await payloadBox.fill("0.");
  await page.getByRole("button", { name: "Search payloads" }).click();
  await expect(page.getByText("Type at least 3 characters.")).toBeVisible();
  await expect(payloadBox).toHaveAttribute("aria-invalid", "true");
  await payloadBox.fill('"hoursAgo": 0.5');
  await page.getByRole("button", { name: "Search payloads" }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("table").getByText("evt-special-42", { exact: false })).toBeVisible();
  expect(decodeURIComponent(page.url())).toContain("payload=");
  await shot(page, "portal-logs-payload-search", { doc: true, fullPage: false });
  await page.getByRole("button", { name: "Clear payload search" }).click();
  await expect(rows).toHaveCount(51);

  // The inspector of a seeded dead letter: error class of a no-answer attempt, timeline.
  await page.getByRole("button", { name: "Reset filters" }).click();
  await choose(page, "Status", ["Dead-lettered"]);
  await page.getByRole("combobox", { name: "Endpoint", exact: true }).selectOption({ label: "A — https://hooks.example.com/a" });
  // The previous page stays on screen until the new one arrives: wait for the filtered rows.
  await expect(rows).toHaveCount(dead);
  await page.getByRole("button", { name: /^Inspect delivery/ }).first().click();
  const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
  await expect(inspector.getByRole("list", { name: "Attempt timeline" }).getByRole("listitem")).toHaveCount(3);
  await inspector.getByRole("button", { name: /#2/ }).click();
  await expect(inspector.getByText(/timeout.*did not answer in time/)).toBeVisible();
  await expect(inspector.getByText("No response").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(inspector).toBeHidden();
});

test("the inspector shows each attempt exactly; Retry keeps the webhook-id, Replay makes a new message", async ({ page, operator }) => {
  const app = await operator.createApp("Inspect Co");
  let calls = 0;
  const receiver = await startReceiver((_r, res) => {
    calls++;
    if (calls === 1) return void res.writeHead(500, { "content-type": "application/json", "x-trace": "t-1" }).end('{"error":"database unavailable"}');
    const n = calls;
    const answer = () => void res.writeHead(200, { "content-type": "application/json", "x-trace": `t-${n}` }).end(`{"ok":true,"n":${n}}`);
    // The Retry's attempt (the third request) takes a moment, so "Retry queued" is seen before it arrives.
    if (n === 3) setTimeout(answer, 3_000);
    else answer();
  });
  const broken = await startReceiver((_r, res) => void res.socket?.destroy());
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Main", retrySchedule: [1], filterTypes: ["order.paid"] });
    await operator.createEndpoint(app.id, { url: broken.url, description: "Broken", retrySchedule: [1], filterTypes: ["order.created"] });
    const msg = await operator.publish(app.id, "order.paid", { order_id: "ord_inspect", lines: [{ sku: "A", qty: 2 }] }, { eventId: "evt-inspect-1" });
    await operator.publish(app.id, "order.created", { order_id: "ord_broken" });
    await receiver.waitFor(2, 30_000);
    await until(async () => (await operator.api("GET", `/app/${app.id}/attempt/msg/${msg.id}`)).body.data?.length === 2 && true, "2 attempts");

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    await page.getByLabel("Message id or event id").fill("evt-inspect-1");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("button", { name: /^Inspect delivery of order\.paid/ }).click();
    const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
    await expect(inspector.getByText(`webhook-id ${msg.id} · event id evt-inspect-1`)).toBeVisible();
    const timeline = inspector.getByRole("list", { name: "Attempt timeline" });
    await expect(timeline.getByRole("listitem")).toHaveCount(2);

    // The latest attempt is shown: the 200, with the exact request.
    const reqHeaders = inspector.getByRole("table", { name: "Request headers" });
    await expect(reqHeaders.getByRole("rowheader", { name: "webhook-signature" })).toBeVisible();
    const sentSig = receiver.received[1]!.headers["webhook-signature"]!;
    const headerValue = (name: string) => reqHeaders.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) }).getByRole("cell");
    await expect(headerValue("webhook-signature")).toHaveText(sentSig);
    await expect(headerValue("webhook-id")).toHaveText(msg.id);
    const reqBody = inspector.getByRole("figure").filter({ hasText: "Request body" }).locator("code");
    await expect(reqBody).toContainText('"sku": "A"'); // pretty-printed
    expect(JSON.parse((await reqBody.textContent())!)).toEqual(JSON.parse(receiver.received[1]!.body));
    await expect(inspector.getByRole("table", { name: "Response headers" }).getByRole("cell", { name: "t-2" })).toBeVisible();
    await expect(inspector.getByRole("figure").filter({ hasText: "Response body" }).locator("code")).toContainText('"n": 2');
    await expect(inspector.getByText(/^\d+ ms$/)).toBeVisible();
    // The first attempt: the 500 and what the server said.
    await timeline.getByRole("button", { name: /#1/ }).click();
    await expect(inspector.getByRole("figure").filter({ hasText: "Response body" }).locator("code")).toContainText("database unavailable");
    await expect(inspector.getByRole("table", { name: "Response headers" }).getByRole("cell", { name: "t-1" })).toBeVisible();
    await shot(page, "portal-inspector");

    // Retry: a new attempt of the same delivery, same webhook-id. With #1 open, the new attempt
    // is shown (selected, marked new) as soon as it arrives.
    await inspector.getByRole("button", { name: "Retry", exact: true }).click();
    await expect(inspector.getByText(/Retry queued/)).toBeVisible();
    await receiver.waitFor(3);
    expect(receiver.received[2]!.headers["webhook-id"]).toBe(msg.id);
    await expect(timeline.getByRole("listitem")).toHaveCount(3);
    await expect(timeline.getByRole("button", { name: /#3/ })).toHaveAttribute("aria-pressed", "true");
    await expect(timeline.getByRole("button", { name: /#3/ })).toContainText("new");
    await expect(inspector.getByRole("status").filter({ hasText: "Attempt #3 arrived: 200" })).toBeVisible();
    // The arrived line replaces the queued one: no stale "will appear" beside what appeared.
    await expect(inspector.getByText(/Retry queued/)).toHaveCount(0);
    await expect(inspector.getByText("Manual (retry)")).toBeVisible();
    await shot(page, "portal-inspector-retried", { doc: true });

    // Replay sends a new event to the receiver: it asks first, saying what and to which endpoint.
    await inspector.getByRole("button", { name: "Replay", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Replay this message?" });
    await expect(confirm).toContainText(receiver.url);
    await expect(confirm).toContainText("new message");
    await shot(page, "portal-replay-confirm", { doc: true });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(inspector.getByRole("button", { name: "Replay", exact: true })).toBeFocused();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.received).toHaveLength(3); // cancelled: nothing sent
    await inspector.getByRole("button", { name: "Replay", exact: true }).click();
    await confirm.getByRole("button", { name: "Replay to this endpoint" }).click();

    // The original ingested again as a new message, linked to it; the inspector moves to the
    // new message's delivery and shows its attempt as it arrives.
    await expect(inspector.getByText(/Replayed as a new message with 1 delivery/)).toBeVisible();
    await receiver.waitFor(4);
    const replayId = receiver.received[3]!.headers["webhook-id"]!;
    expect(replayId).not.toBe(msg.id);
    await expect(inspector.getByText(`webhook-id ${replayId}`)).toBeVisible();
    await expect(inspector.getByText(`Replay of ${msg.id}`)).toBeVisible();
    await expect(timeline.getByRole("listitem")).toHaveCount(1);
    await expect(timeline.getByRole("button", { name: /#1/ })).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(/delivery=dlv_/);
    expect(JSON.parse(receiver.received[3]!.body).data).toEqual({ order_id: "ord_inspect", lines: [{ sku: "A", qty: 2 }] });
    const replayed = await operator.api("GET", `/app/${app.id}/msg/${replayId}`);
    expect(replayed.body.replayOf).toBe(msg.id);
    await inspector.getByRole("button", { name: replayId }).first().click();
    await expect(page.getByRole("table").getByText("replay of " + msg.id)).toBeVisible();
    await shot(page, "portal-logs-replayed");

    // A connection that breaks shows its error class.
    await page.getByRole("button", { name: "Reset filters" }).click();
    await page.getByRole("combobox", { name: "Endpoint", exact: true }).selectOption({ label: `Broken — ${broken.url}` });
    await page.getByRole("button", { name: /^Inspect delivery of order\.created/ }).first().click();
    await expect(inspector.getByText(/^(reset|network)/).first()).toBeVisible();
    expect(ep.id).toMatch(/^ep_/);
  } finally {
    await receiver.close();
    await broken.close();
  }
});

test("range replay: estimate, explicit confirmation, live progress, and cancel", async ({ page, operator }) => {
  const app = await operator.createApp("Replay Co");
  let slow = false;
  const receiver = await startReceiver((_r, res) => void setTimeout(() => res.writeHead(200).end("ok"), slow ? 4_000 : 0));
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Replays" });
    for (let i = 0; i < 4; i++) await operator.publish(app.id, "order.paid", { order_id: `small-${i}` });
    for (let i = 0; i < 40; i++) await operator.publish(app.id, "order.created", { order_id: `big-${i}` });
    await receiver.waitFor(44, 60_000);

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    await page.getByRole("combobox", { name: "Endpoint", exact: true }).selectOption({ label: `Replays — ${receiver.url}` });
    await choose(page, "Event type", ["order.paid"]);
    await page.getByRole("button", { name: "Replay these messages…" }).click();
    const dialog = page.getByRole("dialog", { name: "Replay messages" });
    await expect(dialog.getByText("This will send 4 messages to 1 endpoint")).toBeVisible();
    // What is selected, in words: by subscription (older messages too), samples to others left out.
    await expect(dialog.getByText(/^Messages: those this endpoint subscribes to .*including ones sent before it existed, and its own samples; samples sent to other endpoints are left out/)).toBeVisible();
    const go = dialog.getByRole("button", { name: "Replay 4 messages" });
    await expect(go).toBeDisabled();
    await dialog.getByRole("checkbox", { name: /I understand/ }).check();
    await shot(page, "portal-range-replay-confirm");
    await go.click();
    const progress = dialog.getByRole("region", { name: "Replay", exact: true });
    await expect(progress.getByText("completed", { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(progress.getByText(/4 new messages, 4 deliveries/)).toBeVisible();
    await expect(dialog.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    // Progress is what was delivered, not what was queued.
    await expect(progress.getByTestId("task-measure")).toHaveText("4 of 4 deliveries delivered");
    await receiver.waitFor(48);
    const replayIds = receiver.received.slice(44).map((r) => r.headers["webhook-id"]);
    expect(new Set(replayIds).size).toBe(4);
    await shot(page, "portal-range-replay-done");
    await dialog.getByRole("button", { name: "Close" }).last().click();

    // A longer one, cancelled while it runs, against a slow server (4 s an answer) so that
    // deliveries queue up: what was delivered stays delivered, the rest is never sent.
    slow = true;
    await choose(page, "Event type", ["order.created"]);
    await page.getByRole("button", { name: "Replay these messages…" }).click();
    await expect(dialog.getByText("This will send 40 messages to 1 endpoint")).toBeVisible();
    await dialog.getByRole("checkbox", { name: /I understand/ }).check();
    await dialog.getByRole("button", { name: "Replay 40 messages" }).click();
    await expect(progress.getByText("running", { exact: true })).toBeVisible();
    // Deliveries queue up behind the endpoint's ten requests in flight.
    await expect(progress.getByTestId("task-measure")).toHaveText(/^\d+ of 40 deliveries delivered · (.* )?([5-9]|\d\d) waiting/, { timeout: 30_000 });
    await progress.getByRole("button", { name: "Cancel task" }).click();
    await expect(progress.getByText("cancelled", { exact: true })).toBeVisible({ timeout: 30_000 });
    const atCancel = receiver.received.length;
    await expect(progress.getByText(/cancelled: [1-9]\d* deliveries not yet attempted were stopped/)).toBeVisible();
    // Within a few seconds the requests in flight have arrived; after that, nothing more.
    await new Promise((r) => setTimeout(r, 4_000));
    const settled = receiver.received.length;
    expect(settled - atCancel).toBeLessThanOrEqual(12);
    await new Promise((r) => setTimeout(r, 4_000));
    expect(receiver.received.length).toBe(settled);
    await expect(progress.getByTestId("task-measure")).toHaveText(new RegExp(`^${settled - 48} of \\d+ deliveries delivered · \\d+ cancelled$`));
    await shot(page, "portal-range-replay-cancelled", { doc: true, fullPage: false });
    const replays = await until(async () => {
      const tasks = await operator.api("GET", `/tasks?limit=10`);
      const t = tasks.body.data?.find((x: { kind: string; status: string }) => x.kind === "replay" && x.status === "cancelled");
      return t ?? null;
    }, "the cancelled task");
    expect(replays.done).toBeLessThan(40);
    expect(ep.id).toMatch(/^ep_/);
  } finally {
    await receiver.close();
  }
});

test("exports the filtered log: progress, then the file to download", async ({ page, operator }) => {
  const app = await operator.createApp("Export Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/export", description: "Exported", disabled: true });
  await seedHistory(operator, app.id, ep.id, [
    { eventType: "order.paid", status: "failed", codes: [500, 0, 503], hoursAgo: 3 },
    { eventType: "order.paid", status: "succeeded", codes: [200], hoursAgo: 2 },
    { eventType: "order.created", status: "succeeded", codes: [200], hoursAgo: 1 },
  ]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
  await choose(page, "Event type", ["order.paid"]);
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(3);

  await page.getByRole("button", { name: "Export these logs…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export these logs" });
  await expect(dialog.getByText("Event type: order.paid")).toBeVisible();
  await dialog.getByRole("radio", { name: /CSV/ }).check();
  await dialog.getByRole("button", { name: "Start export" }).click();
  const progress = dialog.getByRole("region", { name: "Export", exact: true });
  await expect(progress.getByText("completed", { exact: true })).toBeVisible({ timeout: 30_000 });
  // The order.paid deliveries' attempts: 3 + 1, not the order.created one.
  await expect(progress.getByText("4 attempts written")).toBeVisible();
  await shot(page, "portal-logs-export", { doc: true, fullPage: false });
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: /Download the export/ }).click()]);
  const file = await download.createReadStream().then(async (s) => {
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  });
  const lines = file.trim().split("\r\n");
  expect(lines[0]).toMatch(/^id,timestamp,msg_id,endpoint_id,event_type,/);
  expect(lines).toHaveLength(1 + 4);
  expect(lines.slice(1).every((l) => l.includes("order.paid") && l.includes(ep.id))).toBe(true);
});

test("a filter the log cannot apply is said in words, naming the parameter, not as a raw path", async ({ page, operator }) => {
  const app = await operator.createApp("Bad Filter Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  // An old bookmark, or a hand-edited address, with a status the log does not know.
  await page.goto("/portal/logs?status=retrying");
  await expect(page.getByText('The "status" parameter (value 1) must be one of succeeded, failed, pending, dead_lettered, canceled.')).toBeVisible();
  await expect(page.getByText(/status\.0/)).toHaveCount(0);
  await shot(page, "portal-logs-bad-filter");
  // A range that ends before it starts is said in the fields' own words.
  await page.goto("/portal/logs?after=2026-02-02T00:00:00.000Z&before=2026-02-01T00:00:00.000Z");
  await expect(page.getByText("“From” must be before “Until”: no delivery can match this range. Change one of them.")).toBeVisible();
});
