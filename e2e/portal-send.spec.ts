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
