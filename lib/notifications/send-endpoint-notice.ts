import { db } from "../db";
import { env } from "../env";
import { logger } from "../logger";
import { mailConfigured, sendMail } from "../accounts/mail";
import type { NoticeKind } from "./endpoint-notices";
import { endpointNoticeMail } from "./notice-mail";
import { unsubscribeLinks } from "./unsubscribe";

// The "notify.endpoint" job (worker/notifications.ts): emails one endpoint change to every member
// of its application who opted in. Recipients are read when the job runs, so someone who opted
// out a second ago is not emailed. `sent` grows as each email goes out and is saved with the job
// (markSent), so a retry after an SMTP failure skips whoever already has theirs.

export type NoticeJob = { endpointId: string; kind: NoticeKind; at: string; reason: string | null; sent: string[] };

export async function sendEndpointNotice(job: NoticeJob, markSent: (sent: string[]) => Promise<void>): Promise<number> {
  if (!mailConfigured()) {
    logger.info({ endpointId: job.endpointId, kind: job.kind }, "endpoint alert not emailed: email is not configured");
    return 0;
  }
  const ep = await db.endpoint.findUnique({
    where: { id: job.endpointId },
    select: { url: true, description: true, failingSince: true, applicationId: true, application: { select: { name: true } } },
  });
  if (!ep) return 0;
  const members = await db.applicationMembership.findMany({
    where: { applicationId: ep.applicationId, notifyEndpointHealth: true },
    select: { id: true, user: { select: { email: true } } },
    orderBy: { id: "asc" },
  });
  const sent = [...job.sent];
  const portalUrl = `${env().HERALD_PUBLIC_URL}/portal/sign-in?app=${ep.applicationId}`;
  for (const m of members) {
    if (sent.includes(m.id)) continue;
    await sendMail(
      endpointNoticeMail(m.user.email, {
        kind: job.kind,
        at: new Date(job.at),
        reason: job.reason,
        application: ep.application.name,
        endpoint: { url: ep.url, description: ep.description, failingSince: ep.failingSince },
        portalUrl,
        unsubscribe: unsubscribeLinks(m.id),
      }),
    );
    sent.push(m.id);
    await markSent(sent);
  }
  return sent.length - job.sent.length;
}
