import { escapeHtml, type Mail } from "../accounts/mail";
import type { NoticeKind } from "./endpoint-notices";

// The words of an endpoint alert: what happened, since when, what to do, and (in the footer,
// the headers too) how to stop these emails with one click.

export type NoticeFacts = {
  kind: NoticeKind;
  at: Date;
  reason: string | null;
  application: string;
  endpoint: { url: string; description: string; failingSince: Date | null };
  portalUrl: string;
  unsubscribe: { page: string; oneClick: string };
};

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

function words(f: NoticeFacts): { subject: string; lead: string; next: string } {
  const name = f.endpoint.description ? `${f.endpoint.description} (${f.endpoint.url})` : f.endpoint.url;
  switch (f.kind) {
    case "failing":
      return {
        subject: `[${f.application}] Webhooks are failing: ${f.endpoint.url}`,
        lead: `Deliveries to your endpoint ${name} have been failing since ${when(f.endpoint.failingSince ?? f.at)}.`,
        next: "Herald keeps retrying each delivery on its schedule, and nothing is lost meanwhile. Check that your server is up and answers with a 2xx status; if failures go on for days, the endpoint is disabled.",
      };
    case "disabled":
      return {
        subject: `[${f.application}] Endpoint disabled: ${f.endpoint.url}`,
        lead: `Herald disabled your endpoint ${name} at ${when(f.at)}${f.reason ? `: ${f.reason}` : ""}.`,
        next: "No more deliveries are attempted until it is enabled again. Once your server answers again, enable the endpoint in the portal (Endpoints, then the endpoint), and recover the deliveries it missed.",
      };
    case "recovered":
      return {
        subject: `[${f.application}] Webhooks recovered: ${f.endpoint.url}`,
        lead: `Your endpoint ${name} is receiving webhooks again: a delivery succeeded at ${when(f.at)}.`,
        next: "Deliveries that waited while it was failing are being sent now. Nothing else to do.",
      };
    case "enabled":
      return {
        subject: `[${f.application}] Endpoint enabled again: ${f.endpoint.url}`,
        lead: `Your endpoint ${name} was enabled again at ${when(f.at)}; Herald delivers to it again.`,
        next: "Deliveries published while it was disabled were not sent; they can be recovered from the endpoint's page in the portal.",
      };
  }
}

export function endpointNoticeMail(to: string, f: NoticeFacts): Mail {
  const { subject, lead, next } = words(f);
  const footer = `You get this email because you turned on endpoint alerts for ${f.application}.`;
  const text = `${lead}\n\n${next}\n\nOpen the portal: ${f.portalUrl}\n\n--\n${footer}\nUnsubscribe: ${f.unsubscribe.page}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(next)}</p>
<p><a href="${escapeHtml(f.portalUrl)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Open the portal</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(footer)} <a href="${escapeHtml(f.unsubscribe.page)}" style="color:#555">Unsubscribe</a></p>
</body></html>`;
  return {
    to,
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${f.unsubscribe.oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
