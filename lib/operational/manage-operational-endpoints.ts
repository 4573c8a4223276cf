import { db } from "../db";
import { conflict, notFound } from "../http/errors";
import { newId } from "../ids";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { Prisma } from "../generated/prisma/client";
import { requireEndpointUrl } from "../endpoints/endpoint-url";
import { splitSensitiveHeaders, validateCustomHeaders } from "../endpoints/custom-headers";
import { DEFAULT_ROTATION_GRACE_SECONDS, newSigningKey, visibleSecret } from "../endpoints/endpoint-secrets";
import { openHeaders, sealHeaders } from "../endpoints/manage-endpoints";
import { setEndpointState } from "../endpoints/set-endpoint-state";
import { ensureOperationalApp, findOperationalApp } from "./operational-app";
import type { OperationalEndpointIn, OperationalEndpointPatch, OperationalEndpointUpdate } from "./schemas";
import { serializeOperationalEndpoint } from "./serialize";

// The operator's operational webhook endpoints: ordinary endpoints of the environment's internal
// application, so they are signed, retried and recorded like any other. Operator keys only.

const uniqueUid = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002"
    ? conflict("An operational endpoint with this uid already exists")
    : e;

async function findOperationalEndpoint(environmentId: string, idOrUid: string) {
  const app = await findOperationalApp(environmentId);
  const ep = app
    ? await db.endpoint.findFirst({ where: { applicationId: app.id, OR: [{ id: idOrUid }, { uid: idOrUid }] } })
    : null;
  if (!ep) throw notFound("Operational webhook endpoint");
  return ep;
}

export async function createOperationalEndpoint(environmentId: string, input: OperationalEndpointIn) {
  const url = await requireEndpointUrl(input.url);
  const app = await ensureOperationalApp(environmentId);
  const key = newSigningKey("hmac_sha256", input.secret);
  try {
    const ep = await db.endpoint.create({
      data: {
        id: newId("endpoint"),
        environmentId,
        applicationId: app.id,
        uid: input.uid ?? null,
        url,
        description: input.description,
        state: input.disabled ? "paused" : "active",
        disabledReason: input.disabled ? "manual" : null,
        eventTypes: input.filterTypes ?? [],
        channels: [],
        metadata: input.metadata,
        throttleRate: input.throttleRate ?? input.rateLimit ?? null,
        secretEncrypted: key.secretEncrypted,
      },
    });
    return serializeOperationalEndpoint(ep);
  } catch (e) {
    throw uniqueUid(e);
  }
}

export async function listOperationalEndpoints(environmentId: string, q: ListQuery) {
  const app = await findOperationalApp(environmentId);
  const page = await paginate(q, "ascending", "endpoint", (p) =>
    app
      ? db.endpoint.findMany({
          where: { applicationId: app.id, ...cursorWhere(p) },
          orderBy: { id: p.direction },
          take: p.take,
        })
      : Promise.resolve([]),
  );
  return toListResponse(page, serializeOperationalEndpoint);
}

export async function getOperationalEndpoint(environmentId: string, idOrUid: string) {
  return serializeOperationalEndpoint(await findOperationalEndpoint(environmentId, idOrUid));
}

/** PUT replaces the settings (absent filterTypes/throttle mean none); PATCH changes what it names. */
export async function updateOperationalEndpoint(
  environmentId: string,
  idOrUid: string,
  patch: OperationalEndpointUpdate | OperationalEndpointPatch,
  mode: "put" | "patch",
) {
  const input =
    mode === "put"
      ? {
          ...patch,
          filterTypes: patch.filterTypes ?? null,
          throttleRate: patch.throttleRate ?? patch.rateLimit ?? null,
          uid: patch.uid ?? null,
        }
      : patch;
  const ep = await findOperationalEndpoint(environmentId, idOrUid);
  const url = input.url !== undefined ? await requireEndpointUrl(input.url) : undefined;
  const throttle = input.throttleRate !== undefined ? input.throttleRate : input.rateLimit;
  try {
    await db.endpoint.update({
      where: { id: ep.id },
      data: {
        ...(url !== undefined ? { url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.uid !== undefined ? { uid: input.uid } : {}),
        ...(input.filterTypes !== undefined ? { eventTypes: input.filterTypes ?? [] } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        ...(throttle !== undefined ? { throttleRate: throttle === 0 ? null : throttle } : {}),
      },
    });
  } catch (e) {
    throw uniqueUid(e);
  }
  if (input.disabled === true && ep.state === "active") await setEndpointState(ep.id, "paused", "manual");
  if (input.disabled === false && ep.state !== "active") await setEndpointState(ep.id, "active");
  return serializeOperationalEndpoint(await db.endpoint.findUniqueOrThrow({ where: { id: ep.id } }));
}

export async function deleteOperationalEndpoint(environmentId: string, idOrUid: string) {
  const ep = await findOperationalEndpoint(environmentId, idOrUid);
  await db.endpoint.delete({ where: { id: ep.id } });
}

export async function getOperationalEndpointSecret(environmentId: string, idOrUid: string) {
  return { key: visibleSecret(await findOperationalEndpoint(environmentId, idOrUid)) };
}

/** A new secret; the previous one keeps signing alongside it for 24 h. */
export async function rotateOperationalEndpointSecret(
  environmentId: string,
  idOrUid: string,
  key: string | null | undefined,
) {
  const ep = await findOperationalEndpoint(environmentId, idOrUid);
  const next = newSigningKey("hmac_sha256", key, ["body", "key"]);
  await db.endpoint.update({
    where: { id: ep.id },
    data: {
      secretEncrypted: next.secretEncrypted,
      previousSecretEncrypted: ep.secretEncrypted,
      previousSecretExpiresAt: new Date(Date.now() + DEFAULT_ROTATION_GRACE_SECONDS * 1000),
    },
  });
}

export async function getOperationalEndpointHeaders(environmentId: string, idOrUid: string) {
  return splitSensitiveHeaders(openHeaders((await findOperationalEndpoint(environmentId, idOrUid)).headersEncrypted));
}

export async function replaceOperationalEndpointHeaders(
  environmentId: string,
  idOrUid: string,
  headers: Record<string, string>,
) {
  const ep = await findOperationalEndpoint(environmentId, idOrUid);
  validateCustomHeaders(headers);
  await db.endpoint.update({ where: { id: ep.id }, data: { headersEncrypted: sealHeaders(headers) } });
}
