import { db } from "../db";
import { conflict, invalid, notFound } from "../http/errors";
import { hasPrefix, newId, idAtTime } from "../ids";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { Prisma } from "../generated/prisma/client";
import type { Scope } from "../auth/principal";
import { findApplication } from "../applications/find-application";
import { missingEventTypes } from "../event-types/manage-event-types";
import { secretBox } from "../services";
import { requireEndpointUrl, requireUpdatedUrl } from "./endpoint-url";
import { validateCustomHeaders } from "./custom-headers";
import { newSigningKey } from "./endpoint-secrets";
import { findEndpoint } from "./find-endpoint";
import type { EndpointIn, EndpointPatch, EndpointUpdate } from "./schemas";
import { serializeEndpoint } from "./serialize";
import { setEndpointState } from "./set-endpoint-state";

async function checkEventTypes(scope: Scope, names: string[] | null | undefined) {
  const missing = await missingEventTypes(scope, names ?? []);
  if (missing.length > 0)
    throw invalid(["body", "filterTypes"], `unknown event type(s): ${missing.join(", ")}; create them in the catalog first`);
}

const uniqueUid = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002"
    ? conflict("An endpoint with this uid already exists in the application")
    : e;

export function sealHeaders(headers: Record<string, string>): string | null {
  return Object.keys(headers).length === 0 ? null : secretBox().seal(JSON.stringify(headers));
}

export function openHeaders(sealed: string | null): Record<string, string> {
  return sealed ? (JSON.parse(secretBox().open(sealed)) as Record<string, string>) : {};
}

export async function createEndpoint(scope: Scope, appIdOrUid: string, input: EndpointIn) {
  const app = await findApplication(scope, appIdOrUid);
  const url = await requireEndpointUrl(input.url);
  const eventTypes = input.filterTypes ?? input.eventTypes ?? [];
  await checkEventTypes(scope, eventTypes);
  if (input.headers) validateCustomHeaders(input.headers);
  const key = newSigningKey(input.signing, input.secret);
  try {
    const ep = await db.endpoint.create({
      data: {
        id: newId("endpoint"),
        environmentId: app.environmentId,
        applicationId: app.id,
        uid: input.uid ?? null,
        url,
        description: input.description,
        version: input.version ?? 1,
        state: input.disabled ? "paused" : "active",
        disabledReason: input.disabled ? "manual" : null,
        eventTypes,
        channels: input.channels ?? [],
        metadata: input.metadata,
        throttleRate: input.throttleRate ?? input.rateLimit ?? null,
        headersEncrypted: sealHeaders(input.headers ?? {}),
        retrySchedule: input.retrySchedule ?? [],
        signingAlgorithm: input.signing,
        secretEncrypted: key.secretEncrypted,
        publicKey: key.publicKey,
      },
    });
    return serializeEndpoint(ep);
  } catch (e) {
    throw uniqueUid(e);
  }
}

export async function listEndpoints(scope: Scope, appIdOrUid: string, q: ListQuery) {
  const app = await findApplication(scope, appIdOrUid);
  const page = await paginate(q, "ascending", "endpoint", (p) =>
    db.endpoint.findMany({
      where: { applicationId: app.id, ...cursorWhere(p) },
      orderBy: { id: p.direction },
      take: p.take,
    }),
  );
  return toListResponse(page, serializeEndpoint);
}

export async function getEndpoint(scope: Scope, appIdOrUid: string, endpointIdOrUid: string) {
  return serializeEndpoint((await findEndpoint(scope, appIdOrUid, endpointIdOrUid)).endpoint);
}

/** PUT: replaces the endpoint's settings (not its secret), creating it when it does not exist. */
export async function upsertEndpoint(scope: Scope, appIdOrUid: string, endpointIdOrUid: string, input: EndpointUpdate) {
  const app = await findApplication(scope, appIdOrUid);
  const existing = await db.endpoint.findFirst({
    where: { applicationId: app.id, OR: [{ id: endpointIdOrUid }, { uid: endpointIdOrUid }] },
  });
  if (!existing) {
    // An id names an existing endpoint; only a uid can name one to create.
    if (hasPrefix(endpointIdOrUid, "endpoint")) throw notFound("Endpoint");
    const created = await createEndpoint(scope, app.id, {
      ...input,
      uid: input.uid ?? endpointIdOrUid,
      signing: "hmac_sha256",
    });
    return { created: true, endpoint: created };
  }
  const url = await requireUpdatedUrl(existing.url, input.url);
  const eventTypes = input.filterTypes ?? input.eventTypes ?? [];
  await checkEventTypes(scope, eventTypes);
  if (input.headers) validateCustomHeaders(input.headers);
  try {
    await db.endpoint.update({
      where: { id: existing.id },
      data: {
        uid: input.uid === undefined ? existing.uid : input.uid,
        url,
        description: input.description,
        version: input.version ?? existing.version,
        eventTypes,
        channels: input.channels ?? [],
        metadata: input.metadata,
        throttleRate: input.throttleRate ?? input.rateLimit ?? null,
        ...(input.headers ? { headersEncrypted: sealHeaders(input.headers) } : {}),
        ...(input.retrySchedule ? { retrySchedule: input.retrySchedule } : {}),
      },
    });
  } catch (e) {
    throw uniqueUid(e);
  }
  const ep = await applyDisabledFlag(existing.id, existing.state, input.disabled);
  return { created: false, endpoint: serializeEndpoint(ep) };
}

export async function patchEndpoint(scope: Scope, appIdOrUid: string, endpointIdOrUid: string, patch: EndpointPatch) {
  const { endpoint } = await findEndpoint(scope, appIdOrUid, endpointIdOrUid);
  const url = patch.url !== undefined ? await requireUpdatedUrl(endpoint.url, patch.url) : undefined;
  const types = patch.filterTypes !== undefined ? patch.filterTypes : patch.eventTypes;
  if (types) await checkEventTypes(scope, types);
  const throttle = patch.throttleRate !== undefined ? patch.throttleRate : patch.rateLimit;
  const key = patch.secret ? newSigningKey(endpoint.signingAlgorithm, patch.secret) : undefined;
  try {
    await db.endpoint.update({
      where: { id: endpoint.id },
      data: {
        ...(key ? { secretEncrypted: key.secretEncrypted, previousSecretEncrypted: null, previousSecretExpiresAt: null } : {}),
        ...(url !== undefined ? { url } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.uid !== undefined ? { uid: patch.uid } : {}),
        ...(patch.version ? { version: patch.version } : {}),
        ...(types !== undefined ? { eventTypes: types ?? [] } : {}),
        ...(patch.channels !== undefined ? { channels: patch.channels ?? [] } : {}),
        ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        ...(throttle !== undefined ? { throttleRate: throttle === 0 ? null : throttle } : {}),
        ...(patch.retrySchedule !== undefined ? { retrySchedule: patch.retrySchedule } : {}),
      },
    });
  } catch (e) {
    throw uniqueUid(e);
  }
  const ep = await applyDisabledFlag(endpoint.id, endpoint.state, patch.disabled);
  return serializeEndpoint(ep);
}

/** The API's `disabled` flag: true pauses (kept configuration), false re-activates. */
async function applyDisabledFlag(endpointId: string, state: string, disabled: boolean | undefined) {
  if (disabled === true && state === "active") await setEndpointState(endpointId, "paused", "manual");
  if (disabled === false && state !== "active") await setEndpointState(endpointId, "active");
  return db.endpoint.findUniqueOrThrow({ where: { id: endpointId } });
}

/** Deletes the endpoint with its delivery and replay state; a new one with the same URL starts empty. */
export async function deleteEndpoint(scope: Scope, appIdOrUid: string, endpointIdOrUid: string) {
  const { endpoint } = await findEndpoint(scope, appIdOrUid, endpointIdOrUid);
  await db.endpoint.delete({ where: { id: endpoint.id } });
}

export async function endpointStats(
  scope: Scope,
  appIdOrUid: string,
  endpointIdOrUid: string,
  range: { since?: Date | undefined; until?: Date | undefined },
) {
  const { endpoint } = await findEndpoint(scope, appIdOrUid, endpointIdOrUid);
  const id: Prisma.StringFilter = {};
  if (range.since) id.gte = idAtTime("delivery", range.since);
  if (range.until) id.lt = idAtTime("delivery", range.until);
  const groups = await db.delivery.groupBy({
    by: ["status"],
    where: { endpointId: endpoint.id, ...(range.since || range.until ? { id } : {}) },
    _count: { _all: true },
  });
  const count = (s: string) => groups.find((g) => g.status === s)?._count._all ?? 0;
  return {
    success: count("succeeded"),
    fail: count("failed"),
    pending: count("pending"),
    sending: count("sending"),
    canceled: count("canceled"),
  };
}
