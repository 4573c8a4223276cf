import { Webhook } from "standardwebhooks";
import { call, expect, openPortal, shot, test, until } from "./fixtures";

// Test URL: a Herald-hosted endpoint that records what it receives. Create one, send a sample to
// it, see the request with its headers and a valid signature, switch its answer to 500 and watch
// Herald retry it.

test("create a test URL, send a sample, see it signed, make it fail and see the retry", async ({ page, operator }) => {
  const app = await operator.createApp("Capture Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Test URL", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Test URL", level: 1 })).toBeVisible();
  await expect(page.getByText("No test URL yet")).toBeVisible();
  await page.getByRole("button", { name: "Create a test URL" }).click();

  const panel = page.getByRole("region", { name: "Test URL" });
  await expect(panel.getByText(/^herald-capture:ep_/)).toBeVisible();
  await panel.getByRole("combobox", { name: "Event type to send" }).selectOption("order.paid");
  await panel.getByRole("button", { name: "Send a sample" }).click();

  const requests = page.getByRole("list", { name: "Requests received" });
  const first = requests.getByRole("listitem", { name: "Request 1" });
  await expect(first.getByText("Signature valid")).toBeVisible();
  await expect(first.getByText("Answered 200")).toBeVisible();
  const headers = first.getByRole("figure").filter({ hasText: "Headers" }).locator("code");
  await expect(headers).toContainText("webhook-id: msg_");
  await expect(headers).toContainText("webhook-signature: v1,");
  await expect(headers).toContainText("svix-signature: v1,");
  await expect(headers).toContainText("user-agent: Herald-Webhooks/1.0");
  await expect(first.getByRole("figure").filter({ hasText: "Body" }).locator("code")).toContainText('"type":"order.paid"');
  await shot(page, "portal-test-url-request");

  // The same request, checked outside Herald: the reference library verifies it with the secret.
  const session = await operator.session(link.token);
  const captures = await call("GET", `/app/${app.id}/capture`, session);
  const endpointId = captures.body.data[0].endpointId as string;
  const detail = await call("GET", `/app/${app.id}/capture/${endpointId}`, session);
  const secret = (await call("GET", `/app/${app.id}/endpoint/${endpointId}/secret`, session)).body.key as string;
  const got = detail.body.requests[0];
  const event = new Webhook(secret).verify(got.body, got.headers) as { type: string; data: { order_id: string } };
  expect(event.type).toBe("order.paid");
  expect(event.data.order_id).toBe("ord_given_example");
  await expect(headers).toContainText(`webhook-id: ${got.headers["webhook-id"]}`);

  // Answer 500: the next sample fails and Herald retries it on its schedule (first retry ~5 s).
  const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes(`/capture/${endpointId}`) && r.ok());
  await panel.getByRole("radio", { name: "500 error" }).check();
  await expect(panel.getByRole("radio", { name: "500 error" })).toBeChecked();
  await saved;
  await panel.getByRole("button", { name: "Send a sample" }).click();
  const second = requests.getByRole("listitem", { name: "Request 2" });
  await expect(second.getByText("Answered 500")).toBeVisible();
  const retry = requests.getByRole("listitem", { name: "Request 3" });
  await expect(retry.getByText("Retry 1")).toBeVisible({ timeout: 20_000 });
  await expect(retry.getByText("Answered 500")).toBeVisible();
  await expect(retry.getByText("Signature valid")).toBeVisible();
  await shot(page, "portal-test-url-retry");

  // The attempts are the engine's own records, like those of any endpoint.
  const sentId = (await second.getByRole("figure").filter({ hasText: "Headers" }).locator("code").textContent())!.match(/webhook-id: (msg_\w+)/)![1]!;
  const attempts = await until(async () => {
    const r = await call("GET", `/app/${app.id}/attempt/msg/${sentId}`, session);
    return r.body.data.length >= 2 ? (r.body.data as { responseStatusCode: number; url: string }[]) : null;
  }, "two attempts");
  expect(attempts.map((a) => a.responseStatusCode)).toEqual([500, 500]);
  expect(attempts[0]!.url).toBe(`herald-capture:${endpointId}`);
});

test("the event catalog downloads as an OpenAPI document", async ({ page, operator }) => {
  const app = await operator.createApp("Catalog Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  await page.getByRole("navigation").getByRole("link", { name: "Event catalog", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download OpenAPI" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${app.id}-webhooks.openapi.json`);
  const doc = JSON.parse(Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8"));
  expect(doc.openapi).toBe("3.1.0");
  // What this link may see: not archived-hidden, never the beta-flagged type without its flag.
  expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(["order.created", "order.paid", "invoice.legacy_sent"]));
  expect(doc.webhooks["beta.feature_used"]).toBeUndefined();
  expect(doc.webhooks["invoice.legacy_sent"].post.deprecated).toBe(true);
});
