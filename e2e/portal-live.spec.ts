import { startReceiver } from "../test/helpers/receiver";
import { expect, openPortal, seedHistory, shot, test, until } from "./fixtures";

// Live and error states: pages say when what they show is no longer current (Herald
// unreachable), errors are plain words with a Try again, and every page's numbers refresh by
// themselves (endpoints, an endpoint's page, failures right after "Retry all").

test("says updates are paused while Herald is unreachable, and recovers with Try again", async ({ page, operator }) => {
  // Two outages of up to ~15 s each (a refresh interval plus two retries before the error shows).
  test.setTimeout(120_000);
  const app = await operator.createApp("Offline Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/offline", disabled: true });
  await seedHistory(operator, app.id, ep.id, [{ eventType: "order.paid", status: "failed", codes: [500], hoursAgo: 1 }]);
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Newest · updates live" })).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);

  // The API stops answering (connection refused, as when Herald or the network is down).
  await page.route("**/api/v1/**", (route) => route.abort("connectionrefused"));
  await expect(page.getByRole("status").filter({ hasText: /Updates paused, retrying · shown as of/ })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("updates live")).toHaveCount(0);
  // The rows stay (marked as not current), and the error says what happened in plain words.
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
  const error = page.getByRole("alert").filter({ hasText: "Could not load the delivery log" });
  await expect(error).toBeVisible({ timeout: 20_000 });
  await expect(error).toContainText("Herald cannot be reached right now");
  await expect(page.getByText(/Failed to fetch/i)).toHaveCount(0);
  await shot(page, "portal-logs-unreachable", { doc: true });

  // Back: Try again brings it live at once.
  await page.unroute("**/api/v1/**");
  await error.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Newest · updates live" })).toBeVisible({ timeout: 5_000 });
  await expect(error).toHaveCount(0);

  // The endpoints list says the same when it cannot refresh.
  await page.getByRole("navigation").getByRole("link", { name: "Endpoints", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Updates live" })).toBeVisible();
  await page.route("**/api/v1/**", (route) => route.abort("connectionrefused"));
  await expect(page.getByRole("status").filter({ hasText: "Updates paused, retrying" })).toBeVisible({ timeout: 25_000 });
  const listError = page.getByRole("alert").filter({ hasText: "Could not load endpoints" });
  await expect(listError).toContainText("Herald cannot be reached right now", { timeout: 25_000 });
  await expect(page.getByRole("link", { name: "https://hooks.example.com/offline" })).toBeVisible();
  await page.unroute("**/api/v1/**");
  await listError.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Updates live" })).toBeVisible({ timeout: 5_000 });
});

test("the endpoints list and an endpoint's page refresh by themselves", async ({ page, operator }) => {
  const app = await operator.createApp("Refresh Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/first", description: "First" });
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await expect(page.getByRole("link", { name: "https://hooks.example.com/first" })).toBeVisible();
  // Someone else adds an endpoint (the operator's API here): it appears without a reload.
  await operator.createEndpoint(app.id, { url: "https://hooks.example.com/second" });
  await expect(page.getByRole("link", { name: "https://hooks.example.com/second" })).toBeVisible({ timeout: 15_000 });

  await page.getByRole("link", { name: "https://hooks.example.com/first" }).click();
  await expect(page.getByRole("heading", { name: "First", level: 1 })).toBeVisible();
  await operator.api("PATCH", `/app/${app.id}/endpoint/${ep.id}`, { description: "Renamed elsewhere" });
  await expect(page.getByRole("heading", { name: "Renamed elsewhere", level: 1 })).toBeVisible({ timeout: 15_000 });
});

test("the failure counts change as soon as Retry all completes", async ({ page, operator }) => {
  const app = await operator.createApp("Retry Live Co");
  let accept = false;
  const receiver = await startReceiver((_r, res) => void (accept ? res.writeHead(200).end("ok") : res.writeHead(422).end("no")));
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url });
    for (let i = 0; i < 2; i++) await operator.publish(app.id, "order.paid", { order_id: `live-${i}` });
    await until(async () => (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}/stats`)).body.fail === 2, "2 dead letters");
    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
    const groups = page.locator("[aria-label='Failure groups'] > li");
    await expect(groups).toHaveCount(1);
    accept = true;
    await page.getByRole("button", { name: /Retry all 2 dead-lettered/ }).click();
    const dialog = page.getByRole("dialog", { name: /Retry all dead-lettered deliveries/ });
    await dialog.getByRole("button", { name: "Retry 2 deliveries" }).click();
    await expect(dialog.getByText("completed", { exact: true })).toBeVisible({ timeout: 30_000 });
    // The page behind the dialog is already up to date: no wait for the next 10 s refresh.
    await expect(groups).toHaveCount(0, { timeout: 3_000 });
  } finally {
    await receiver.close();
  }
});
