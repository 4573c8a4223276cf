import { startReceiver } from "../test/helpers/receiver";
import { expect, openPortal, seedHistory, shot, test, until } from "./fixtures";

// Failures: dead-lettered and failing deliveries grouped by endpoint and status code, with counts
// and first/last seen, and "retry all" per group as a bulk task that re-attempts them.

test("groups failures by endpoint and status code, and retries a whole group", async ({ page, operator }) => {
  const app = await operator.createApp("Failures Co");
  let mode: "reject" | "accept" = "reject";
  // 422 is not retryable: each delivery is dead-lettered on its first attempt.
  const receiver = await startReceiver((_r, res) => void (mode === "reject" ? res.writeHead(422).end("unprocessable") : res.writeHead(200).end("ok")));
  const gone = await startReceiver((_r, res) => void res.writeHead(400).end("bad request"));
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Orders", filterTypes: ["order.paid"] });
    const legacy = await operator.createEndpoint(app.id, { url: gone.url, description: "Legacy", filterTypes: ["order.created"] });
    for (let i = 0; i < 3; i++) await operator.publish(app.id, "order.paid", { order_id: `f-${i}` });
    await operator.publish(app.id, "order.created", { order_id: "legacy" });
    await until(async () => {
      const r = await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}/stats`);
      return r.body.fail === 3;
    }, "3 dead-lettered deliveries");
    await until(async () => (await operator.api("GET", `/app/${app.id}/endpoint/${legacy.id}/stats`)).body.fail === 1, "the legacy dead letter");

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
    const groups = page.getByRole("list", { name: "Failure groups" }).getByRole("listitem");
    await expect(groups).toHaveCount(2);
    const orders = groups.filter({ hasText: receiver.url });
    await expect(orders.getByText("422", { exact: true })).toBeVisible();
    await expect(orders.getByText("Dead-lettered").locator("xpath=following-sibling::dd[1]")).toHaveText("3");
    await expect(orders.getByText(/First seen .* ago · last seen .* ago/)).toBeVisible();
    await expect(groups.filter({ hasText: gone.url }).getByText("400", { exact: true })).toBeVisible();
    await shot(page, "portal-failures");

    // "View deliveries" goes to the filtered log.
    await orders.getByRole("link", { name: "View deliveries" }).click();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);
    await page.goBack();

    mode = "accept";
    await page.getByRole("button", { name: /Retry all 3 dead-lettered deliveries with 422/ }).click();
    const dialog = page.getByRole("dialog", { name: /Retry all dead-lettered deliveries/ });
    await expect(dialog.getByText(/same events/)).toBeVisible();
    await dialog.getByRole("button", { name: "Retry 3 deliveries" }).click();
    await expect(dialog.getByRole("region", { name: "Retry all" }).getByText("completed", { exact: true })).toBeVisible({ timeout: 30_000 });
    await until(async () => (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}/stats`)).body.success === 3, "3 retried deliveries to succeed");
    // Same webhook-ids as the dead letters: a retry is the same delivery.
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    await dialog.getByRole("button", { name: "Close" }).last().click();
    await expect(groups).toHaveCount(1);
  } finally {
    await receiver.close();
    await gone.close();
  }
});

test("View deliveries opens exactly the group's deliveries: its endpoint, its status code, dead-lettered or still retrying", async ({ page, operator }) => {
  const app = await operator.createApp("Groups Co");
  // A paused endpoint: the worker leaves the seeded history as it is.
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/groups", description: "Groups", disabled: true });
  const other = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/other", description: "Other", disabled: true });
  await seedHistory(operator, app.id, ep.id, [
    // "Dead-lettered 0 / still retrying 1": the group the old link showed as empty.
    { eventType: "order.created", status: "pending", codes: [503], hoursAgo: 1 },
    { eventType: "order.created", status: "failed", codes: [500, 500], hoursAgo: 2 },
    { eventType: "order.paid", status: "failed", codes: [503, 500], hoursAgo: 3 },
    { eventType: "order.paid", status: "pending", codes: [500], hoursAgo: 4 },
    { eventType: "order.created", status: "failed", codes: [0], hoursAgo: 5 },
    { eventType: "order.created", status: "succeeded", codes: [503, 200], hoursAgo: 6 },
  ]);
  await seedHistory(operator, app.id, other.id, [{ eventType: "order.created", status: "pending", codes: [503], hoursAgo: 1 }]);

  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
  const groups = page.getByRole("list", { name: "Failure groups" }).getByRole("listitem");
  await expect(groups).toHaveCount(4);
  const rows = page.getByRole("table").getByRole("row");
  const expected = [
    { code: "503", dead: "0", retrying: "1", rows: 1 },
    { code: "500", dead: "2", retrying: "1", rows: 3 },
    { code: "No response", dead: "1", retrying: "0", rows: 1 },
  ];
  for (const g of expected) {
    const group = groups.filter({ hasText: "hooks.example.com/groups" }).filter({ has: page.getByText(g.code, { exact: true }) });
    await expect(group.getByText("Dead-lettered").locator("xpath=following-sibling::dd[1]")).toHaveText(g.dead);
    await expect(group.getByText("Still retrying").locator("xpath=following-sibling::dd[1]")).toHaveText(g.retrying);
    await group.getByRole("link", { name: "View deliveries" }).click();
    await expect(page.getByTestId("status-code-filter")).toBeVisible();
    await expect(rows).toHaveCount(1 + g.rows);
    for (const cell of await page.getByRole("table").getByRole("row").filter({ hasNot: page.getByRole("columnheader") }).all())
      await expect(cell).toContainText(g.code === "No response" ? "No response" : g.code);
    if (g.code === "503") await shot(page, "portal-failures-view-deliveries", { doc: true, fullPage: false });
    await page.goBack();
    await expect(groups).toHaveCount(4);
  }
});

test("counts deliveries held behind an open circuit, with the probe they wait for, and says why Retry all is not offered", async ({ page, operator }) => {
  const app = await operator.createApp("Outage Co");
  const down = await startReceiver((_r, res) => void res.writeHead(500).end("down"));
  try {
    const ep = await operator.createEndpoint(app.id, { url: down.url, description: "Down", retrySchedule: [3600], filterTypes: ["order.paid"] });
    // Ten failed first attempts in a row open the circuit; each then waits an hour for its retry.
    for (let i = 0; i < 10; i++) await operator.publish(app.id, "order.paid", { order_id: `o-${i}` });
    await until(async () => (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body.circuitState === "open", "the circuit to open");
    // Two more are held behind it, not tried.
    for (let i = 0; i < 2; i++) await operator.publish(app.id, "order.paid", { order_id: `h-${i}` });

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
    const held = page.getByRole("list", { name: "Held behind an open circuit" }).getByRole("listitem");
    await expect(held).toHaveCount(1);
    await expect(held).toContainText(down.url);
    await expect(held.getByText("Held", { exact: true }).locator("xpath=following-sibling::dd[1]")).toHaveText("2");
    await expect(held.getByText(/Not tried yet: they wait for the circuit's next probe at .+ and go out once it succeeds\./)).toBeVisible();
    const group = page.getByRole("list", { name: "Failure groups" }).getByRole("listitem");
    await expect(group).toHaveCount(1);
    await expect(group.getByText("Still retrying").locator("xpath=following-sibling::dd[1]")).toHaveText("10");
    await expect(group.getByText("These are still being retried on their schedule; Retry all applies to deliveries that gave up.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Retry all/ })).toHaveCount(0);
    await shot(page, "portal-failures-held");
    expect(down.received).toHaveLength(10);
    await operator.api("PATCH", `/app/${app.id}/endpoint/${ep.id}`, { disabled: true });
  } finally {
    await down.close();
  }
});
