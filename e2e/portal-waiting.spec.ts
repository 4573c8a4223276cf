import { startReceiver } from "../test/helpers/receiver";
import { expect, openPortal, shot, test, until } from "./fixtures";

// Held deliveries say why they wait and until when (issue 13 item 1): an endpoint answering 500
// opens its circuit after ten failed attempts; a new delivery is then held, and its log row and
// inspector say "Circuit open, failing since …. Next probe at …"; the failed ones say when their
// retry is scheduled; the endpoint's page explains the circuit in plain words. A sample sent then
// is held too, and says so at once, offering the resend that goes past the circuit; that attempt
// failing re-opens the circuit, which every view then says, with the outage's start unchanged.

test("a held delivery says the circuit is open and when the next probe goes", async ({ page, operator }) => {
  const rx = await startReceiver((_r, res) => void res.writeHead(500).end("down for maintenance"));
  try {
    const app = await operator.createApp("Held Co");
    const ep = await operator.createEndpoint(app.id, { url: rx.url, description: "Billing", retrySchedule: [3600] });
    for (let i = 0; i < 10; i++) await operator.publish(app.id, "order.created", { order_id: `ord_${i}`, amount: 100 + i });
    await rx.waitFor(10);
    await until(async () => (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body.circuitState === "open", "the circuit to open");
    const held = await operator.publish(app.id, "order.paid", { order_id: "ord_held" });

    const link = await operator.portalLink(app.id);
    await openPortal(page, link.url);
    await page.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    const heldRow = page.getByRole("row").filter({ hasText: held.id });
    await expect(heldRow.getByTestId("wait-reason")).toHaveText(/^Circuit open, failing since .+\. Next probe at .+\. Held until your server answers again\.$/);
    const retrying = page.getByRole("row").filter({ hasText: "Failed, retrying" });
    await expect(retrying).toHaveCount(10);
    await expect(retrying.first().getByTestId("wait-reason")).toHaveText(/^Retry scheduled at .+\(in .+\); the circuit is open, next probe at .+\(in .+\)\.$/);
    // The absolute time is on hover.
    await expect(heldRow.getByTestId("wait-reason").locator("time").first()).toHaveAttribute("title", /\d{4}/);
    expect(rx.received).toHaveLength(10); // the held delivery was not sent
    await shot(page, "portal-waiting-log", { doc: true });

    await heldRow.getByRole("button", { name: /^Inspect delivery/ }).click();
    const inspector = page.getByRole("dialog", { name: "Delivery inspector" });
    await expect(inspector.getByTestId("wait-reason")).toHaveText(/^Circuit open, failing since .+\. Next probe at .+\./);
    await expect(inspector.getByText("No attempt yet")).toBeVisible();
    await shot(page, "portal-waiting-inspector", { doc: true });
    await page.keyboard.press("Escape");

    await page.goto(`/portal/endpoints/${ep.id}`);
    const explainer = page.getByTestId("circuit-explainer");
    await expect(explainer).toContainText(/^Your server has been failing since .+; after 10 failed attempts in a row, Herald has stopped sending to your server/);
    await expect(explainer).toContainText("Held deliveries are not lost");
    await expect(explainer).toContainText(/At .+ Herald sends one delivery as a test \(a probe\)/);
    await expect(explainer).not.toContainText("failed in a row so far");
    await shot(page, "portal-circuit-explained", { doc: true });
    const before = (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body;
    // One moment for "failing since" in every view: the endpoint's, the log's and the inspector's.
    await expect(explainer.locator("time").first()).toHaveAttribute("datetime", before.failingSince);

    // A sample to the held endpoint says at once that it is held, and why (not a bare spinner).
    await page.goto(`/portal/send?endpoint=${ep.id}&eventType=order.created`);
    await page.getByRole("button", { name: "Send sample event" }).click();
    const result = page.getByRole("region", { name: "Result" });
    await expect(result.getByTestId("wait-reason")).toHaveText(
      /^Circuit open, failing since .+; 10 failed attempts in a row, the last at .+\. Next probe at .+\. Held until your server answers again\.$/,
    );
    await expect(result.getByText("Waiting for the first attempt")).toHaveCount(0);
    await shot(page, "portal-send-held");
    // Sending a sample is no explicit action on the circuit; a resend is: it goes at once.
    expect(rx.received).toHaveLength(10);
    await result.getByRole("button", { name: "Send it now" }).click();
    await expect(result.getByText(/Attempt 1: 500 in \d+ ms/)).toBeVisible();
    expect(rx.received).toHaveLength(11);

    // That failure is counted, with its time, and the outage's start unchanged.
    const after = await until(async () => {
      const b = (await operator.api("GET", `/app/${app.id}/endpoint/${ep.id}`)).body;
      return b.consecutiveFailures === 11 && b;
    }, "the failed resend to be recorded");
    await page.goto(`/portal/endpoints/${ep.id}`);
    await expect(explainer).toContainText(/Herald has stopped sending to your server so it is not flooded while it is down \(11 failed in a row so far, the last at .+\)\./);
    await expect(explainer.locator("time").first()).toHaveAttribute("datetime", before.failingSince);
    await expect(explainer.locator("time").nth(1)).toHaveAttribute("datetime", after.circuitOpenedAt);
    await shot(page, "portal-circuit-reopened");
    await page.goto(`/portal/logs?endpoint=${ep.id}`);
    await expect(heldRow.getByTestId("wait-reason")).toHaveText(
      /^Circuit open, failing since .+; 11 failed attempts in a row, the last at .+\. Next probe at .+\. Held until your server answers again\.$/,
    );
    await expect(heldRow.getByTestId("wait-reason").locator("time").first()).toHaveAttribute("datetime", before.failingSince);
  } finally {
    await rx.close();
  }
});
