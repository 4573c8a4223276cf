import { z } from "zod";
import type { Scope } from "../auth/principal";
import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { zEventTypeName, zUniqueList } from "../http/fields";
import { findApplication } from "../applications/find-application";
import { createInternalEndpoint } from "../endpoints/create-internal-endpoint";
import { signingKeys } from "../endpoints/endpoint-secrets";
import { serializeEndpoint } from "../endpoints/serialize";
import { missingEventTypes } from "../event-types/manage-event-types";
import type { CaptureInbox, CaptureRequest, Endpoint } from "../generated/prisma/client";
import { checkSignature } from "./check-signature";
import { CAPTURE_LIMITS } from "./limits";

// Test URLs: Herald-hosted endpoints that record what they receive (the portal's "Test URL"
// page). A few per application, expiring after CAPTURE_LIMITS.ttlHours; the worker deletes
// expired ones with their endpoint (cleanup-captures.ts).

export const CaptureIn = z.object({
  filterTypes: zUniqueList(zEventTypeName).nullish().describe("Event types it receives; null or absent for all"),
});
export type CaptureIn = z.infer<typeof CaptureIn>;

export const CapturePatch = z.object({
  answer: z.enum(["ok", "error", "slow"]).describe("ok: 200; error: 500; slow: no answer within the acknowledgement timeout"),
});
export type CapturePatch = z.infer<typeof CapturePatch>;

type InboxWithEndpoint = CaptureInbox & { endpoint: Endpoint };

function serializeCapture(inbox: InboxWithEndpoint, requestCount: number) {
  return {
    endpointId: inbox.endpointId,
    answer: inbox.answer,
    expiresAt: inbox.expiresAt.toISOString(),
    createdAt: inbox.createdAt.toISOString(),
    requestCount,
    endpoint: serializeEndpoint(inbox.endpoint),
  };
}
export type CaptureOut = ReturnType<typeof serializeCapture>;

function serializeRequest(r: CaptureRequest, secrets: string[]) {
  const headers = r.headers as Record<string, string>;
  return {
    id: r.id,
    receivedAt: r.receivedAt.toISOString(),
    headers,
    body: r.body,
    answerStatus: r.answerStatus,
    signature: checkSignature(headers, r.body, secrets),
  };
}
export type CapturedRequestOut = ReturnType<typeof serializeRequest>;

/** The application's test URLs that have not expired, newest first. */
export async function listCaptures(scope: Scope, appIdOrUid: string) {
  const app = await findApplication(scope, appIdOrUid);
  const inboxes = await db.captureInbox.findMany({
    where: { applicationId: app.id, expiresAt: { gt: new Date() } },
    include: { endpoint: true, _count: { select: { requests: true } } },
    orderBy: { createdAt: "desc" },
  });
  return { data: inboxes.map((i) => serializeCapture(i, i._count.requests)) };
}

export async function createCapture(scope: Scope, appIdOrUid: string, input: CaptureIn) {
  const app = await findApplication(scope, appIdOrUid);
  const eventTypes = input.filterTypes ?? [];
  const missing = await missingEventTypes(scope, eventTypes);
  if (missing.length > 0) throw invalid(["body", "filterTypes"], `unknown event type(s): ${missing.join(", ")}`);
  const now = new Date();
  const inbox = await db.$transaction(async (tx) => {
    // Serialises creations per application, so the limit holds under concurrent requests.
    await tx.$executeRaw`SELECT 1 FROM application WHERE id = ${app.id} FOR UPDATE`;
    const live = await tx.captureInbox.count({ where: { applicationId: app.id, expiresAt: { gt: now } } });
    if (live >= CAPTURE_LIMITS.perApplication)
      throw conflict(
        `An application has at most ${CAPTURE_LIMITS.perApplication} test URLs at a time; delete one first`,
        "capture_limit_reached",
      );
    const endpoint = await createInternalEndpoint(
      "capture",
      {
        environmentId: app.environmentId,
        applicationId: app.id,
        description: "Test URL (Herald-hosted, records what it receives)",
        eventTypes,
      },
      tx,
    );
    return tx.captureInbox.create({
      data: {
        endpointId: endpoint.id,
        environmentId: app.environmentId,
        applicationId: app.id,
        expiresAt: new Date(now.getTime() + CAPTURE_LIMITS.ttlHours * 3600_000),
      },
      include: { endpoint: true },
    });
  });
  return serializeCapture(inbox, 0);
}

async function findCapture(scope: Scope, appIdOrUid: string, endpointId: string) {
  const app = await findApplication(scope, appIdOrUid);
  const inbox = await db.captureInbox.findFirst({
    where: { endpointId, applicationId: app.id, expiresAt: { gt: new Date() } },
    include: { endpoint: true },
  });
  if (!inbox) throw notFound("Test URL");
  return inbox;
}

/** One test URL with the requests it received (newest first) and their signature check. */
export async function getCapture(scope: Scope, appIdOrUid: string, endpointId: string) {
  const inbox = await findCapture(scope, appIdOrUid, endpointId);
  const requests = await db.captureRequest.findMany({
    where: { endpointId: inbox.endpointId, applicationId: inbox.applicationId },
    orderBy: { id: "desc" },
    take: CAPTURE_LIMITS.requestsKept,
  });
  const secrets = signingKeys(inbox.endpoint);
  return { ...serializeCapture(inbox, requests.length), requests: requests.map((r) => serializeRequest(r, secrets)) };
}

export async function setCaptureAnswer(scope: Scope, appIdOrUid: string, endpointId: string, patch: CapturePatch) {
  const inbox = await findCapture(scope, appIdOrUid, endpointId);
  await db.captureInbox.updateMany({
    where: { endpointId: inbox.endpointId, applicationId: inbox.applicationId },
    data: { answer: patch.answer },
  });
  return getCapture(scope, appIdOrUid, endpointId);
}

/** Deletes the test URL with its endpoint and that endpoint's delivery history. */
export async function deleteCapture(scope: Scope, appIdOrUid: string, endpointId: string) {
  const inbox = await findCapture(scope, appIdOrUid, endpointId);
  await db.endpoint.deleteMany({ where: { id: inbox.endpointId, applicationId: inbox.applicationId } });
}
