import { describe, expect, it } from "vitest";
import { endpointNoticeMail, type NoticeFacts } from "./notice-mail";

// The words and headers of an endpoint alert, for each change.

const facts = (kind: NoticeFacts["kind"], extra: Partial<NoticeFacts> = {}): NoticeFacts => ({
  kind,
  at: new Date("2026-12-02T10:31:07Z"),
  reason: null,
  application: "Acme Billing",
  endpoint: { url: "https://acme.example/hooks", description: "Billing <b>webhooks</b>", failingSince: new Date("2026-12-02T10:20:00Z") },
  portalUrl: "https://herald.example/portal/sign-in?app=app_1",
  unsubscribe: { page: "https://herald.example/unsubscribe?token=a.b", oneClick: "https://herald.example/api/notifications/unsubscribe?token=a.b" },
  ...extra,
});

describe("endpoint alert emails", () => {
  it("says what happened, since when and what to do, for each change", () => {
    const failing = endpointNoticeMail("dev@acme.example", facts("failing"));
    expect(failing.subject).toBe("[Acme Billing] Webhooks are failing: https://acme.example/hooks");
    expect(failing.text).toContain("have been failing since 2026-12-02 10:20 UTC");
    expect(failing.text).toContain("Open the portal: https://herald.example/portal/sign-in?app=app_1");

    const disabled = endpointNoticeMail("dev@acme.example", facts("disabled", { reason: "gone: the endpoint answered 410 Gone" }));
    expect(disabled.subject).toBe("[Acme Billing] Endpoint disabled: https://acme.example/hooks");
    expect(disabled.text).toContain("at 2026-12-02 10:31 UTC: gone: the endpoint answered 410 Gone.");
    expect(disabled.text).toContain("enable the endpoint in the portal");

    expect(endpointNoticeMail("d@a.example", facts("recovered")).subject).toBe("[Acme Billing] Webhooks recovered: https://acme.example/hooks");
    expect(endpointNoticeMail("d@a.example", facts("enabled")).subject).toBe("[Acme Billing] Endpoint enabled again: https://acme.example/hooks");
  });

  it("carries the one-click unsubscribe headers (RFC 8058) and the page link, and escapes HTML", () => {
    const m = endpointNoticeMail("dev@acme.example", facts("failing"));
    expect(m.headers).toEqual({
      "List-Unsubscribe": "<https://herald.example/api/notifications/unsubscribe?token=a.b>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(m.text).toContain("Unsubscribe: https://herald.example/unsubscribe?token=a.b");
    expect(m.html).toContain('href="https://herald.example/unsubscribe?token=a.b"');
    expect(m.html).toContain("Billing &lt;b&gt;webhooks&lt;/b&gt;");
    expect(m.html).not.toContain("<b>webhooks</b>");
  });
});
