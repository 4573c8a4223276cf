import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback (smtp-server, no auth, no STARTTLS) that keeps every email it
// receives, parsed (mailparser), for tests of what Herald sends: HERALD_SMTP_URL = `url`.

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;

export const recipients = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ""));

export async function startSmtp() {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.server.address() as AddressInfo;
  const to = (email: string) => mails.filter((m) => recipients(m).includes(email));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Emails to `email` (optionally whose subject matches). */
    to: (email: string, subject?: RegExp) => to(email).filter((m) => !subject || subject.test(m.subject ?? "")),
    /** The first email to `email` whose subject matches, waiting for it. */
    async waitFor(email: string, subject: RegExp, timeoutMs = 30_000): Promise<ParsedMail> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = to(email).find((m) => subject.test(m.subject ?? ""));
        if (found) return found;
        if (Date.now() > until)
          throw new Error(`no email to ${email} matching ${subject} in ${timeoutMs} ms; got: ${JSON.stringify(mails.map((m) => [recipients(m), m.subject]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The raw value of a header line (mailparser turns List-* headers into objects). */
export function rawHeader(m: ParsedMail, name: string): string | null {
  const line = m.headerLines.find((h) => h.key === name.toLowerCase());
  return line ? line.line.slice(line.line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim() : null;
}
