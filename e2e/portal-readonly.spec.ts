import { call, expect, openPortal, seedHistory, shot, test } from "./fixtures";

// A read-only link: everything can be looked at, nothing can be changed. The controls that
// would change something are not there, and the API refuses anyway.

test("a read-only link shows no mutating control, and the API refuses writes", async ({ page, operator }) => {
  const app = await operator.createApp("Read-only Co");
  const ep = await operator.createEndpoint(app.id, {
    url: "https://hooks.example.com/ro",
    description: "Watched",
    disabled: true,
  });
  const [d] = await seedHistory(operator, app.id, ep.id, [
    { eventType: "order.paid", status: "failed", codes: [500], hoursAgo: 1 },
  ]);
  const link = await operator.portalLink(app.id, { readOnly: true });
  await openPortal(page, link.url);
  await expect(page.getByRole("banner").getByText("Read-only", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add endpoint" })).toHaveCount(0);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Send sample", exact: true })).toHaveCount(0);
  await shot(page, "portal-readonly-endpoints");

  await page.getByRole("link", { name: "https://hooks.example.com/ro" }).click();
  await expect(page.getByRole("heading", { name: "Watched", level: 1 })).toBeVisible();
  for (const name of ["Pause", "Resume", "Edit", "Delete", "Rotate signing secret", "Set header"])
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  // Reading the secret is not a change.
  await page.getByRole("button", { name: "Reveal signing secret" }).click();
  await expect(page.getByLabel("signing secret", { exact: true })).toContainText("whsec_");

  await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
  await expect(page.getByRole("button", { name: "Replay these messages…" })).toHaveCount(0);
  await page.getByRole("button", { name: /^Inspect delivery/ }).click();
  const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
  await expect(inspector.getByText("500").first()).toBeVisible();
  await expect(inspector.getByRole("button", { name: "Retry", exact: true })).toHaveCount(0);
  await expect(inspector.getByRole("button", { name: "Replay", exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
  // The log page just left shows "Dead-lettered" too: look only once the Failures page is there.
  await expect(page.getByRole("heading", { name: "Failures", level: 1 })).toBeVisible();
  await expect(page.getByRole("main").getByText("Dead-lettered", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Retry all/ })).toHaveCount(0);

  // Going to the create page directly shows a notice, not a form.
  await page.getByRole("navigation").getByRole("link", { name: "Endpoints", exact: true }).click();
  await page.goto("/portal/endpoints/new");
  await expect(page.getByText("This portal link cannot add endpoints.")).toBeVisible();

  // And the API refuses, whatever the page shows.
  const session = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem("herald.portal.session") ?? "{}").session as string,
  );
  for (const [method, path, body] of [
    ["PATCH", `/app/${app.id}/endpoint/${ep.id}`, { disabled: false }],
    ["DELETE", `/app/${app.id}/endpoint/${ep.id}`],
    ["POST", `/app/${app.id}/msg/${d!.msgId}/endpoint/${ep.id}/resend`],
    ["POST", `/app/${app.id}/msg/${d!.msgId}/replay`, {}],
  ] as [string, string, unknown?][]) {
    const r = await call(method, path, session, body);
    expect(r.status, `${method} ${path}`).toBe(403);
  }
  expect((await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body.state).toBe("paused");
});

test("a read-only link without ViewEndpointSecret shows no signing secret, and the API refuses it", async ({ page, operator }) => {
  const app = await operator.createApp("No-secret Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/nosecret", description: "Hidden key", disabled: true });
  const link = await operator.portalLink(app.id, { readOnly: true, capabilities: ["ViewBase"] });
  // The link's token is a bearer too (as in Svix): it is refused the secret.
  const refused = await call("GET", `/app/${app.id}/endpoint/${ep.id}/secret`, link.token);
  expect(refused.status).toBe(403);
  expect(JSON.stringify(refused.body)).not.toContain("whsec_");

  const secretRequests: number[] = [];
  page.on("response", (r) => {
    if (/\/endpoint\/[^/]+\/secret$/.test(new URL(r.url()).pathname)) secretRequests.push(r.status());
  });
  await openPortal(page, link.url);
  await page.getByRole("link", { name: "https://hooks.example.com/nosecret" }).click();
  await expect(page.getByRole("heading", { name: "Hidden key", level: 1 })).toBeVisible();
  await expect(page.getByText("Signing key hidden")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reveal signing secret" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate signing secret" })).toHaveCount(0);
  // A real secret, not the word: the "v1" term's explanation names the format (whsec_…).
  await expect(page.getByText(/whsec_[A-Za-z0-9+/=]{8,}/)).toHaveCount(0);
  expect(secretRequests).toEqual([]); // the page never even asks
  await shot(page, "portal-readonly-no-secret", { doc: true, fullPage: false });
});
