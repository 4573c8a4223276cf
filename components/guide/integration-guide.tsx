import type { ReactNode } from "react";
import { CodeBlock } from "../ui/code-block";
import { formatDuration } from "../ui/format";
import { CLASSIC_MISTAKES, STANDARD_HEADERS, verifySnippets } from "@/lib/portal/verify-snippets";
import type { GuideFacts } from "@/lib/portal/guide-facts";

// The integrator guide: what a developer receiving these webhooks relies on, written as explicit
// sentences with this server's real numbers (retry schedule, timeouts, retention). Rendered at
// /docs/webhooks (public, for operators to link) and in the portal (/portal/guide, with the
// session's own catalog). Presentational only: the pages pass the facts in.


function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

const td = "border-b border-slate-200 px-3 py-1.5 text-left align-top";

export function RetryTable({ schedule }: { schedule: number[] }) {
  let total = 0;
  const rows = [{ n: 1, after: "immediately", total: "0 s" }];
  schedule.forEach((s, i) => {
    total += s;
    rows.push({ n: i + 2, after: `${formatDuration(s)} after attempt ${i + 1}`, total: formatDuration(total) });
  });
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Retry schedule">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th className={td}>Attempt</th>
            <th className={td}>When (each delay ±20%)</th>
            <th className={td}>Since publishing, about</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.n}>
              <td className={td}>{r.n}</td>
              <td className={td}>{r.after}</td>
              <td className={td}>{r.total}</td>
            </tr>
          ))}
          <tr>
            <td className={td}>—</td>
            <td className={td} colSpan={2}>
              Still failing: the delivery is dead-lettered (kept for inspection, retry and replay).
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function IntegrationGuide({ facts, catalog }: { facts: GuideFacts; catalog: ReactNode }) {
  const ack = facts.requestTimeoutMs / 1000;
  const node = verifySnippets({ headers: STANDARD_HEADERS, algorithm: "hmac_sha256" }).find((s) => s.language === "node")!;
  const attempts = facts.retrySchedule.length + 1;
  const span = formatDuration(facts.retrySchedule.reduce((a, b) => a + b, 0));
  return (
    <article className="space-y-10 text-sm leading-6 text-slate-800">
      <Section id="contract" title="The delivery contract">
        <p>Five facts your integration can rely on, and must allow for:</p>
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            <strong>Delivery is at-least-once.</strong> An event is retried until your endpoint acknowledges it, so a handler that processed
            it and crashed before answering sees it again. There is no exactly-once: deduplicate.
          </li>
          <li>
            <strong>Ordering is best effort.</strong> Retries and parallel delivery reorder events: <code>order.updated</code> may arrive before{" "}
            <code>order.created</code>. Do not infer order from timestamps; fetch the current state from the API when order matters.
          </li>
          <li>
            <strong>Retries follow a fixed schedule:</strong> {attempts} attempts over about {span} (table below), then the delivery is
            dead-lettered and kept {facts.deadLetterRetentionDays} days.
          </li>
          <li>
            <strong>Acknowledge with any 2xx within {ack} seconds</strong> (the connection itself within {facts.connectTimeoutMs / 1000} s). A
            slower answer counts as a failure even if your handler is correct: answer first, work afterwards.
          </li>
          <li>
            <strong>The dedup id is the <code>webhook-id</code> header</strong> (also the body&apos;s <code>id</code>): the same on every retry and
            resend of an event, different for a replay.
          </li>
        </ol>
      </Section>

      <Section id="verify" title="Verify every signature">
        <p>
          Every request is signed with{" "}
          <a className="text-blue-800 underline" href="https://www.standardwebhooks.com/">
            Standard Webhooks
          </a>
          : <code>webhook-signature</code> is <code>v1,</code> + base64 of HMAC-SHA256 over <code>{"{webhook-id}.{webhook-timestamp}.{raw body}"}</code>,
          keyed with your endpoint&apos;s <code>whsec_</code> secret (or <code>v1a,</code> ed25519 for endpoints with a public key). During a secret
          rotation the header carries two signatures; either verifies. Refuse timestamps more than {facts.signatureToleranceSeconds / 60} minutes
          off. The same values come as <code>svix-*</code> headers, so the Svix libraries verify unchanged.
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          {CLASSIC_MISTAKES.map((m) => (
            <li key={m.title}>
              <strong>{m.title}.</strong> {m.detail}
            </li>
          ))}
        </ol>
        <p>
          This receiver uses only Node.js&apos;s standard library and is tested against real deliveries; the portal&apos;s <em>Verify signatures</em> page has
          the same for Python, Go, Ruby and PHP. With a library: <code>new Webhook(secret).verify(rawBody, headers)</code> from{" "}
          <code>standardwebhooks</code> (or <code>svix</code>).
        </p>
        <CodeBlock title={node.filename} copyLabel="Node.js receiver" code={node.code} maxHeight="24rem" />
      </Section>

      <Section id="catalog" title="The event catalog">
        <p>
          Events are named <code>resource.action</code> in the past tense (<code>invoice.paid</code>). Each type has a JSON Schema per version and an
          example. Fields are only ever added; an incompatible change gets a new event type. Bodies are an envelope{" "}
          <code>{"{id, type, timestamp, version, data, previous}"}</code> where <code>data</code> is the payload as published, which the
          type&apos;s schema describes (Herald does not reject a payload that does not match it, so check the fields you rely on), and{" "}
          <code>timestamp</code> is when the event was published (not when this attempt was made). The same catalog is published as an OpenAPI 3.1
          document (its <code>webhooks</code>) for code generators.
        </p>
        {catalog}
      </Section>

      <Section id="retries" title="Retries and answers">
        <RetryTable schedule={facts.retrySchedule} />
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>2xx</strong>: delivered; nothing else counts. <strong>3xx</strong>: a failure, redirects are not followed.
          </li>
          <li>
            <strong>5xx, 408, no answer in time, connection errors</strong>: retried on the schedule. <strong>429 and 503</strong> honour{" "}
            <code>Retry-After</code> (at most twice the scheduled delay, never beyond 24 h).
          </li>
          <li>
            <strong>Other 4xx</strong>: not retried, the delivery goes straight to the dead letter. <strong>410 Gone</strong> also disables the
            endpoint.
          </li>
          <li>
            After 10 failures in a row the endpoint&apos;s circuit opens: deliveries wait (none of their schedule used) and a single probe is sent after
            a cool-down; its success lets the backlog flow again. An endpoint with no success for {facts.autoDisableAfterHours / 24} days (and at least 10
            failures) is disabled, and your provider is notified outside of your webhooks.
          </li>
        </ul>
      </Section>

      <Section id="troubleshooting" title="Troubleshooting and recovery">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>&quot;We answered 200, then crashed.&quot;</strong> That is a delivered event as far as anyone can tell: no log or dashboard can see
            inside your handler. Persist the event (a queue, a table) <em>before</em> you answer, and make the processing retryable on your side.
          </li>
          <li>
            <strong>Slow handlers.</strong> Verify, store, answer 2xx, then do the work. A handler that takes longer than {ack} s is recorded as a
            timeout and the event is sent again, even if it finished.
          </li>
          <li>
            <strong>Timeouts and failures</strong> are in the portal&apos;s delivery log with every attempt: the exact request (headers, body), your
            answer (status, headers, body) or the error (timeout, DNS, refused, TLS…), and the duration. <em>Failures</em> groups what is failing by
            endpoint and status code.
          </li>
          <li>
            <strong>After your outage</strong>: fix the endpoint, then <em>Retry</em> one delivery, <em>Retry all</em> of a failure group, or recover an
            endpoint from a point in time. A disabled endpoint is re-enabled from the portal; then recover what it missed.
          </li>
          <li>
            <strong>Reconcile high-value events</strong> (payments, entitlements) against the API on a schedule. At-least-once with retries is
            dependable, not infallible: periodic reconciliation is how you close the gap, and is expected.
          </li>
        </ul>
      </Section>

      <Section id="testing" title="Testing tools">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>Send a sample event</strong> (portal, <em>Send sample</em>): any event type, built from its schema&apos;s example, signed and delivered
            to the endpoint you pick, with the exact request shown first.
          </li>
          <li>
            <strong>Test URL</strong> (portal): a Herald-hosted URL that records every request it receives, with its headers, body and signature
            check, before you have a server. Set it to answer 500 or slowly and watch the retries.
          </li>
          <li>
            <strong>herald listen</strong>: forwards deliveries to your machine, from behind NAT, and records your local server&apos;s answer as the
            attempt:
          </li>
        </ul>
        <CodeBlock
          title="Develop locally"
          copyLabel="herald listen commands"
          code={`curl -sSO ${facts.heraldUrl}/cli/herald.mjs      # Node.js 20+, no dependencies
node herald.mjs listen --url ${facts.heraldUrl} \\
  --token '<your portal link>' --forward-to http://localhost:4000/webhooks \\
  --events invoice.paid,invoice.voided`}
        />
        <p>
          It prints <code>Ready</code>, the endpoint id and its signing secret (<code>whsec_…</code>): verify with that secret exactly as in
          production. Events published while it is not running fail and are retried on the schedule; Ctrl-C leaves the endpoint in place and says
          how to delete it.
        </p>
      </Section>

      <Section id="decisions" title="Decisions you should not have to guess">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            <strong>No bubbling.</strong> An event is delivered under its own type only: <code>customer.subscription.updated</code> never also fires
            as <code>customer.updated</code>. Subscribe to each type you need; an endpoint without an event-type filter receives every type.
          </li>
          <li>
            <strong>A new endpoint starts with new events.</strong> It receives what is published after it was created, no backlog. To get earlier
            events, replay a time range to it from the delivery log.
          </li>
          <li>
            <strong>After an outage on our side, delivery resumes where it stopped.</strong> Every event is stored before it is queued: pending
            deliveries continue from their place in the schedule (nothing skipped, nothing restarted), within about 10 seconds of recovery.
          </li>
          <li>
            <strong>Changes apply to the next attempt.</strong> A new URL, secret, custom header or pause reaches the delivery path at once: every
            attempt reads the endpoint&apos;s settings when it starts, so only an attempt already in flight (at most {ack} s) uses the old ones.
            Event-type and channel filters apply to events published after the change.
          </li>
          <li>
            <strong>Deleting an endpoint destroys its delivery and replay state.</strong> Re-creating one with the same URL starts from nothing: new
            id, new secret, no history, no pending retries. To stop deliveries for a while, pause it instead.
          </li>
        </ul>
      </Section>
    </article>
  );
}
