import { startReceiver } from "../test/helpers/receiver";
import { expect, openPortal, shot, test } from "./fixtures";

// Send sample event: pick an event type, see the exact payload and headers, send it to an
// endpoint and watch the attempt appear.

test("previews the exact request, sends it, and shows the attempt", async ({ page, operator }) => {
  const app = await operator.createApp("Sample Co");
  const receiver = await startReceiver((_r, res) => void res.writeHead(202, { "content-type": "application/json" }).end('{"queued":true}'));
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url, description: "Receiver" });
    expect((await operator.api("PATCH", `/app/${app.id}/endpoint/${ep.id}/headers`, { headers: { "X-Team": "payments", "X-Api-Key": "k-secret" } })).status).toBe(204);
    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Send sample", exact: true }).click();
    await page.getByRole("combobox", { name: "Event type", exact: true }).selectOption("order.paid");

    const headers = page.getByRole("figure").filter({ hasText: "Headers" }).locator("code");
    const body = page.getByRole("figure").filter({ hasText: "Body" }).locator("code");
    await expect(headers).toContainText("webhook-signature: v1,");
    await expect(headers).toContainText("webhook-id: msg_");
    await expect(headers).toContainText("x-team: payments");
    await expect(headers).toContainText("x-api-key: [redacted]");
    await expect(headers).not.toContainText("k-secret");
    await expect(body).toContainText('"type": "order.paid"');
    await expect(body).toContainText('"order_id": "ord_given_example"');
    await expect(page.getByText(`POST ${receiver.url}`)).toBeVisible();
    await shot(page, "portal-send-sample");
    const previewBody = JSON.parse((await body.textContent())!);

    await page.getByRole("button", { name: "Send sample event" }).click();
    const result = page.getByRole("region", { name: "Result" });
    await expect(result.getByText(/Attempt 1: 202 in \d+ ms/)).toBeVisible();
    await expect(result.getByText("Succeeded")).toBeVisible();
    await shot(page, "portal-send-sample-result");

    // What arrived is what was previewed, but for the message id and timestamp.
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    const sent = JSON.parse(got.body);
    expect({ ...sent, id: "x", timestamp: "x" }).toEqual({ ...previewBody, id: "x", timestamp: "x" });
    expect(got.headers["x-team"]).toBe("payments");
    expect(got.headers["x-api-key"]).toBe("k-secret");
    expect(got.headers["webhook-id"]).toBe(sent.id);

    // The inspector opens from the result.
    await result.getByRole("link", { name: "Open in the inspector" }).click();
    const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
    await expect(inspector.getByText("202").first()).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("edits the payload, checked against the schema as you type, or takes a recent real message", async ({ page, operator }) => {
  const app = await operator.createApp("Own Payload Co");
  const other = await operator.createApp("Someone Else");
  const receiver = await startReceiver((_r, res) => void res.writeHead(200).end());
  try {
    const ep = await operator.createEndpoint(app.id, { url: receiver.url });
    const real = await operator.publish(app.id, "order.created", { order_id: "ord_real_one", amount: 1250, currency: "EUR" });
    // Another application's message of the same type is not this portal's to offer.
    await operator.publish(other.id, "order.created", { order_id: "ord_not_yours", amount: 1 });
    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.goto(`/portal/send?endpoint=${ep.id}&eventType=order.created`);
    await expect(page.getByRole("heading", { name: "Send a sample event", level: 1 })).toBeVisible();

    const payload = page.getByRole("textbox", { name: "Payload" });
    await expect(payload).toHaveValue(/"order_id": "ord_e2e_1"/);
    const send = page.getByRole("button", { name: "Send sample event" });

    // Wrong as typed: the field says which paths are wrong, and nothing can be sent.
    await payload.fill('{ "order_id": 7, "currency": "GBP" }');
    await expect(payload).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: "order_id: must be string" })).toContainText(
      'amount: is required; currency: must be one of "EUR", "USD"',
    );
    await expect(payload).toHaveAccessibleDescription(/order_id: must be string/);
    await expect(send).toBeDisabled();
    await expect(page.getByText("Fix the payload to see the request.")).toBeVisible();
    await shot(page, "portal-send-own-payload-invalid", { doc: true });
    await payload.fill("{ not json");
    await expect(page.getByRole("alert").filter({ hasText: "payload: not valid JSON" })).toBeVisible();

    // Right: the preview follows, and what arrives is what was typed.
    await payload.fill('{ "order_id": "ord_typed", "amount": 77 }');
    await expect(payload).toHaveAttribute("aria-invalid", "false");
    const body = page.getByRole("figure").filter({ hasText: "Body" }).locator("code");
    await expect(body).toContainText('"order_id": "ord_typed"');
    await send.click();
    await expect(page.getByRole("region", { name: "Result" }).getByText(/Attempt 1: 200 in \d+ ms/)).toBeVisible();
    const typed = receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.data.order_id === "ord_typed");
    expect(typed).toMatchObject({ type: "order.created", data: { order_id: "ord_typed", amount: 77 } });

    // A recent real message of this type, this application's only, becomes the sample.
    const recent = page.getByRole("list", { name: "Recent order.created messages" });
    await expect(recent.getByText(real.id)).toBeVisible();
    await expect(recent).not.toContainText("ord_not_yours");
    await recent.getByRole("button", { name: `Use the payload of ${real.id}` }).click();
    await expect(payload).toHaveValue(/"order_id": "ord_real_one"/);
    await expect(body).toContainText('"order_id": "ord_real_one"');
    await shot(page, "portal-send-recent-message", { doc: true });
    await send.click();
    await expect
      .poll(() => receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.data.order_id === "ord_real_one").length)
      .toBe(2); // the real message itself, then the sample made from it
    await page.getByRole("button", { name: "Reset to the example" }).click();
    await expect(payload).toHaveValue(/"order_id": "ord_e2e_1"/);
  } finally {
    await receiver.close();
  }
});

test("opened for an endpoint, it offers an event type the endpoint subscribes to, and says when it sends one it does not", async ({ page, operator }) => {
  const app = await operator.createApp("Subscribed Co");
  const ep = await operator.createEndpoint(app.id, { url: "https://hooks.example.com/paid", filterTypes: ["order.paid"] });
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.goto(`/portal/send?endpoint=${ep.id}`);
  const eventType = page.getByRole("combobox", { name: "Event type", exact: true });
  await expect(eventType).toHaveValue("order.paid");
  const note = page.getByText("This endpoint does not subscribe to order.created: it gets this sample only because you send it there.");
  await expect(note).toHaveCount(0);
  await eventType.selectOption("order.created");
  await expect(note).toBeVisible();
});
