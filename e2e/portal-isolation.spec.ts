import { call, expect, openPortal, seedHistory, shot, test } from "./fixtures";

// App A's portal, driven by someone who knows app B's ids: B's pages do not open, B's data does
// not appear, and the session token lifted from the page gets 404s from every B path.

test("app A's session cannot reach app B's endpoints, deliveries or messages", async ({ page, operator }) => {
  const a = await operator.createApp("Tenant A");
  const b = await operator.createApp("Tenant B");
  const epA = await operator.createEndpoint(a.id, { url: "https://hooks.example.com/a", disabled: true });
  const epB = await operator.createEndpoint(b.id, { url: "https://hooks.example.com/b-secret-path", disabled: true });
  await seedHistory(operator, a.id, epA.id, [{ eventType: "order.paid", status: "succeeded", codes: [200], hoursAgo: 1 }]);
  const [dB] = await seedHistory(operator, b.id, epB.id, [{ eventType: "order.paid", status: "failed", codes: [500], hoursAgo: 1, eventId: "evt-b-only" }]);

  const link = await operator.portalLink(a.id);
  await openPortal(page, link.url);

  await page.goto(`/portal/endpoints/${epB.id}`);
  await expect(page.getByText("Endpoint not found").first()).toBeVisible();
  // The body says what happened and what to do, not the title again.
  await expect(page.getByText("There is no endpoint with this id in this application")).toBeVisible();
  await expect(page.getByText("Endpoint not found", { exact: true })).toHaveCount(1);
  await expect(page.getByText("b-secret-path")).toHaveCount(0);
  await shot(page, "portal-isolation-endpoint");

  await page.goto(`/portal/logs?delivery=${dB!.deliveryId}`);
  const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
  await expect(inspector.getByText("Delivery not found").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await page.goto(`/portal/logs?search=evt-b-only`);
  await expect(page.getByText("No deliveries match")).toBeVisible();
  await page.goto(`/portal/logs?endpoint=${epB.id}`);
  await expect(page.getByText("Endpoint not found").first()).toBeVisible();
  await page.goto(`/portal/send?endpoint=${epB.id}`);
  await expect(page.getByText("Endpoint not found").first()).toBeVisible();
  await expect(page.getByText("b-secret-path")).toHaveCount(0);

  const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem("herald.portal.session") ?? "{}").session as string);
  for (const [method, path, body] of [
    ["GET", `/app/${b.id}/endpoint`],
    ["GET", `/app/${a.id}/endpoint/${epB.id}`],
    ["GET", `/app/${a.id}/endpoint/${epB.id}/secret`],
    ["DELETE", `/app/${b.id}/endpoint/${epB.id}`],
    ["GET", `/portal/app/${b.id}/delivery`],
    ["GET", `/portal/app/${a.id}/delivery/${dB!.deliveryId}`],
    ["GET", `/app/${a.id}/msg/${dB!.msgId}`],
    ["POST", `/app/${a.id}/msg/${dB!.msgId}/replay`, {}],
  ] as [string, string, unknown?][]) {
    const r = await call(method, path, session, body);
    expect(r.status, `${method} ${path}`).toBe(404);
  }
  expect((await operator.api("GET", `/app/${b.id}/endpoint/${epB.id}`)).status).toBe(200);
});
