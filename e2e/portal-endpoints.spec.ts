import { startReceiver } from "../test/helpers/receiver";
import { expect, openPortal, seedHistory, shot, test, until } from "./fixtures";

// Endpoints page: list with state and 24 h health, create with immediate URL validation (SSRF
// rules included), catalog-picked event types, channels, headers, rate limit, retry policy
// within bounds and signing; edit, pause/resume, reveal and rotate the secret, delete; the
// endpoint metrics (success rate, status codes, latency) over 1 h, 24 h and 7 d.

test("creates an endpoint with every setting, validating as you type", async ({ page, operator }) => {
  const app = await operator.createApp("Endpoints Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("link", { name: "Add endpoint" }).click();
  const url = page.getByLabel("Endpoint URL");

  // Immediate validation, with the server's reasons.
  await url.fill("ftp://example.com/hook");
  await expect(page.getByText("must use http or https")).toBeVisible();
  await url.fill("https://user:pw@example.com/hook");
  await expect(page.getByText("must not contain credentials")).toBeVisible();
  await url.fill("http://127.0.0.2:8080/hook");
  await expect(page.getByText(/non-public address/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Create endpoint" })).toBeDisabled();
  await url.fill("http://169.254.169.254/latest/meta-data");
  await expect(page.getByText(/non-public address/)).toBeVisible();
  await url.fill("https://hooks.example.com/orders");
  await expect(page.getByText("Herald can deliver to this URL")).toBeVisible();

  await page.getByLabel("Description").fill("Orders service");
  await expect(page.getByText("None selected: this endpoint receives every event type")).toBeVisible();
  await page.getByRole("checkbox", { name: /order\.paid/ }).check();
  await page.getByRole("checkbox", { name: /order\.created/ }).check();
  // Archived types are not offered; deprecated ones are marked.
  await expect(page.getByRole("checkbox", { name: /customer\.retired/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: /invoice\.legacy_sent/ })).toBeVisible();
  await page.getByLabel(/^Channels/).fill("eu, project_1");
  await page.getByLabel(/^Rate limit/).fill("70000");
  await expect(page.getByText("a whole number from 1 to 65535")).toBeVisible();
  await page.getByLabel(/^Rate limit/).fill("25");

  await page.getByRole("radio", { name: "A custom schedule" }).check();
  const schedule = page.getByLabel("Delays before each retry");
  // Not a word against an untouched field; leaving it empty is what asks for a delay.
  await expect(page.getByText(/list at least one delay/)).toHaveCount(0);
  await expect(schedule).not.toHaveAttribute("aria-invalid", "true");
  await schedule.focus();
  await schedule.blur();
  await expect(page.getByText(/list at least one delay/)).toBeVisible();
  // A bad entry is named, with why.
  await schedule.fill("5s, 2d");
  await expect(page.getByText("entry 2 ('2d'): must be between 1s and 24 h")).toBeVisible();
  await schedule.fill("5s, 5m, 5x");
  await expect(page.getByText(/^entry 3 \('5x'\): not a duration/)).toBeVisible();
  await schedule.fill(Array.from({ length: 20 }, () => "5s").join(", "));
  await expect(page.getByText(/20 delays: at most 19 retries/)).toBeVisible();
  await schedule.fill("5s, 5m, 30m, 2h");
  await expect(page.getByText(/4 retries over 2.6 h/)).toBeVisible();

  await page.getByRole("radio", { name: /Asymmetric \(ed25519\)/ }).check();
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Header 1 name").fill("X-Tenant");
  await page.getByLabel("Header 1 value").fill("acme");
  // Wide enough to read a value (it wraps onto its own line rather than shrink).
  expect((await page.getByLabel("Header 1 value").boundingBox())!.width).toBeGreaterThanOrEqual(224);
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Header 2 name").fill("Authorization");
  await page.getByLabel("Header 2 value").fill("Bearer s3cret");
  await shot(page, "portal-endpoint-create");
  await page.getByRole("button", { name: "Create endpoint" }).click();

  await expect(page.getByText("Endpoint created")).toBeVisible();
  // Focus lands on the new endpoint's heading (not on a Create button that is gone), and the
  // notice is a status that screen readers announce (issue 13 item 14).
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Endpoint created" })).toBeVisible();
  await expect(page.getByText("order.paid, order.created")).toBeVisible();
  await expect(page.getByText("eu, project_1")).toBeVisible();
  await expect(page.getByText("25 per second")).toBeVisible();
  await expect(page.getByText(/5s → 5 min → 30 min → 2 h \(4 retries\)/)).toBeVisible();
  await expect(page.getByText("Ed25519 signature,")).toBeVisible();
  await expect(page.getByRole("cell", { name: "X-Tenant", exact: true })).toBeVisible();
  await expect(page.getByText("•••••• (set, hidden)")).toBeVisible();
  await expect(page.getByText("Bearer s3cret")).toHaveCount(0);

  // The API agrees.
  const list = await operator.api("GET", `/app/${app.id}/endpoint`);
  const ep = list.body.data[0];
  expect(ep).toMatchObject({ url: "https://hooks.example.com/orders", description: "Orders service", channels: ["eu", "project_1"], rateLimit: 25, retrySchedule: [5, 300, 1800, 7200], signing: "ed25519" });
  expect([...ep.filterTypes].sort()).toEqual(["order.created", "order.paid"]);

  // The server's 422 reasons land on the form too (a header Herald sets itself).
  await page.getByRole("navigation").getByRole("link", { name: "Endpoints", exact: true }).click();
  await page.getByRole("link", { name: "Add endpoint" }).click();
  await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/other");
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Header 1 name").fill("webhook-id");
  await page.getByLabel("Header 1 value").fill("forged");
  await expect(page.getByText("Herald can deliver to this URL")).toBeVisible();
  await page.getByRole("button", { name: "Create endpoint" }).click();
  // Said once, under the headers, not again in a banner above the form.
  await expect(page.getByText(/is set by Herald and cannot be overridden/)).toHaveCount(1);
  await expect(page.getByRole("form", { name: "New endpoint" }).getByRole("alert")).toHaveCount(1);
});

test("lists endpoints with state, 24 h success rate and chart; edit, pause, resume, rotate, delete", async ({ page, operator }) => {
  const app = await operator.createApp("Manage Co");
  let fail = true;
  const receiver = await startReceiver((_r, res) => void res.writeHead(fail ? 500 : 200).end(fail ? "down" : "ok"));
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Billing", retrySchedule: [1] });
    const other = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/paused", description: "Paused one", disabled: true });
    for (let i = 0; i < 3; i++) await operator.publish(app.id, "order.paid", { order_id: `o${i}` });
    await until(async () => (await operator.api("GET", `/app/${app.id}/attempt/endpoint/${ep.id}`)).body.data?.length >= 6, "6 attempts (3 messages, 1 retry each)");
    fail = false;
    await operator.publish(app.id, "order.paid", { order_id: "o-ok" });
    await until(async () => (await operator.api("GET", `/app/${app.id}/attempt/endpoint/${ep.id}`)).body.data?.length >= 7, "7th attempt");

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    const row = page.getByRole("listitem").filter({ hasText: "Billing" });
    await expect(row.getByText("Active")).toBeVisible();
    await expect(row.getByLabel("Success rate, last 24 hours: 14.3%")).toBeVisible();
    await expect(row.getByRole("img", { name: /1 succeeded, 6 failed attempts/ })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Paused one" }).getByText("Paused", { exact: true })).toBeVisible();
    await shot(page, "portal-endpoints");

    // Details, edit.
    await page.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
    // The custom-header box in the narrow side column is wide enough to read a value.
    await page.getByLabel("Header value").fill("Bearer a-token-long-enough-to-read");
    expect((await page.getByLabel("Header value").boundingBox())!.width).toBeGreaterThanOrEqual(224);
    await shot(page, "portal-endpoint-headers-panel");
    await page.getByLabel("Header value").fill("");
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Description").fill("Billing v2");
    await page.getByRole("checkbox", { name: /order\.created/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("heading", { name: "Billing v2", level: 1 })).toBeVisible();
    await expect(page.getByText("Event types", { exact: true }).locator("xpath=following-sibling::dd[1]")).toHaveText("order.created");

    // Pause and resume.
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
    await expect(page.getByText("Paused").first()).toBeVisible();
    expect((await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body.state).toBe("paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    expect((await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body.state).toBe("active");

    // Reveal, copy, rotate with the overlap window explained.
    const before = (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}/secret`)).body.key;
    await page.getByRole("button", { name: "Reveal signing secret" }).click();
    await expect(page.getByLabel("signing secret", { exact: true })).toHaveText(before);
    await page.getByRole("button", { name: "Rotate signing secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await expect(dialog.getByText("Overlap window: 24 h.")).toBeVisible();
    await expect(dialog.getByText(/two signatures in the/)).toBeVisible();
    await shot(page, "portal-endpoint-rotate");
    await dialog.getByRole("button", { name: "Rotate now" }).click();
    await expect(page.getByText("Rotated. The previous signing secret keeps signing alongside the new one for 24 h.")).toBeVisible();
    const after = (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}/secret`)).body.key;
    expect(after).not.toBe(before);
    await expect(page.getByLabel("signing secret", { exact: true })).toHaveText(after);
    // Both keys sign during the window.
    // Count before publishing: the delivery can arrive before publish() returns.
    const seen = receiver.received.length;
    await operator.publish(app.id, "order.created", { order_id: "after-rotate" });
    await receiver.waitFor(seen + 1);
    expect(receiver.received.at(-1)!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    await shot(page, "portal-endpoint-detail");

    // Delete: the warning says what is lost, and asks for the word.
    await page.getByRole("button", { name: "Delete" }).click();
    const del = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await expect(del.getByText(/delivery and replay state is destroyed/)).toBeVisible();
    await expect(del.getByText(/Re-creating an endpoint with the same URL starts from nothing/)).toBeVisible();
    await expect(del.getByRole("button", { name: "Delete endpoint" })).toBeDisabled();
    await del.getByLabel('Type "delete" to confirm').fill("delete");
    await shot(page, "portal-endpoint-delete");
    await del.getByRole("button", { name: "Delete endpoint" }).click();
    await page.waitForURL(/\/portal\/endpoints$/);
    await expect(page.getByRole("link", { name: receiver.url })).toHaveCount(0);
    expect((await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).status).toBe(404);
    expect((await operator.api("GET", `/app/${app.id}/endpoint/${other.id}`)).status).toBe(200);
  } finally {
    await receiver.close();
  }
});

test("the endpoint page shows success rate, status codes and latency over 1 hour, 24 hours and 7 days", async ({ page, operator }) => {
  const app = await operator.createApp("Metrics Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/metrics", description: "Metered", disabled: true });
  const item = (hoursAgo: number, code: number) => ({ eventType: "order.paid", status: code === 200 ? ("succeeded" as const) : ("failed" as const), codes: [code], hoursAgo });
  await seedHistory(operator, app.id, ep.id, [item(0.1, 200), item(0.2, 200), item(0.3, 200), item(0.4, 500), item(3, 200), item(72, 503)]);

  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.goto(`/portal/endpoints/${ep.id}`);
  const metrics = page.getByRole("region", { name: "Metrics" });
  const figure = (name: string) => metrics.getByText(name, { exact: true }).locator("xpath=following-sibling::dd[1]");
  // 24 hours first: 4 of 5 attempts succeeded.
  await expect(metrics.getByRole("tab", { name: "24 hours" })).toHaveAttribute("aria-selected", "true");
  await expect(figure("Success rate")).toHaveText("80.0%");
  await expect(figure("Latency p50")).toHaveText("40 ms");
  await expect(figure("Latency p95")).toHaveText("40 ms");
  const codes = metrics.getByRole("table", { name: "Status codes answered" });
  await expect(codes.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "200" }) })).toContainText("4");
  await expect(codes.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "500" }) })).toContainText("1");
  await shot(page, "portal-endpoint-metrics", { doc: true, fullPage: false });
  await metrics.getByRole("tab", { name: "1 hour" }).click();
  await expect(figure("Success rate")).toHaveText("75.0%");
  await expect(metrics.getByText("4 attempts (each HTTP try counts): 3 succeeded, 1 failed")).toBeVisible();
  await metrics.getByRole("tab", { name: "1 hour" }).press("End");
  await expect(metrics.getByRole("tab", { name: "7 days" })).toHaveAttribute("aria-selected", "true");
  await expect(figure("Success rate")).toHaveText("66.7%");
  await expect(codes.getByRole("rowheader", { name: "503" })).toBeVisible();
});
