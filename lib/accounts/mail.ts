import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../env";
import { logger } from "../logger";
import { processWide } from "../process-wide";

// The one place Herald sends email from (sign-in links, invitations, endpoint alerts):
// HERALD_SMTP_URL (smtp:// or smtps://, credentials in the URL) and HERALD_EMAIL_FROM. Without
// them email is "not configured", which callers must say to the user rather than fail silently.

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
};

export class MailNotConfigured extends Error {
  constructor() {
    super("Email is not configured on this Herald server (HERALD_SMTP_URL and HERALD_EMAIL_FROM)");
  }
}

const mailer = processWide<{ url?: string; transport?: Transporter }>("heraldMailer", () => ({}));

export function mailConfigured(): boolean {
  const e = env();
  return Boolean(e.HERALD_SMTP_URL && e.HERALD_EMAIL_FROM);
}

function transport(url: string): Transporter {
  if (mailer.url !== url || !mailer.transport) {
    mailer.url = url;
    mailer.transport = nodemailer.createTransport(url);
  }
  return mailer.transport;
}

export async function sendMail(mail: Mail): Promise<void> {
  const { HERALD_SMTP_URL: url, HERALD_EMAIL_FROM: from } = env();
  if (!url || !from) throw new MailNotConfigured();
  // Extra headers go out as given (prepared): folding could split a long List-Unsubscribe URL.
  const headers = mail.headers
    ? Object.fromEntries(Object.entries(mail.headers).map(([k, value]) => [k, { prepared: true, value }]))
    : undefined;
  const info = (await transport(url).sendMail({ from, ...mail, headers })) as { messageId?: string };
  // The recipient and subject only: bodies hold sign-in links, which are credentials.
  logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, "email sent");
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A plain email with one call-to-action link, as text and HTML. */
export function linkMail(to: string, subject: string, lead: string, action: string, url: string, footer: string): Mail {
  const text = `${lead}\n\n${action}: ${url}\n\n${footer}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(footer)}</p>
</body></html>`;
  return { to, subject, text, html };
}
