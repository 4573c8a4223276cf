import { z } from "zod";
import { db } from "../db";
import { hashToken, randomToken } from "../crypto/tokens";
import { newId } from "../ids";
import { notFound } from "../http/errors";
import { cursorWhere, paginate, toListResponse, type ListQuery } from "../http/pagination";
import { assertOperatorOwner, scopeOf, type Principal, type Scope } from "../auth/principal";

export const API_KEY_PREFIX = "hk_";

function displayPrefix(key: string): string {
  return key.slice(0, 10);
}

/** Mints a new operator API key; the returned plaintext is the only copy. */
export async function createApiKey(environmentId: string, name: string): Promise<{ id: string; key: string }> {
  const key = randomToken(API_KEY_PREFIX, 32);
  const id = newId("apiKey");
  await db.apiKey.create({ data: { id, environmentId, name, hash: hashToken(key), prefix: displayPrefix(key) } });
  return { id, key };
}

/** Makes sure `key` (HERALD_BOOTSTRAP_API_KEY) is a valid key of the environment. */
export async function ensureApiKey(environmentId: string, key: string, name: string): Promise<void> {
  await db.apiKey.upsert({
    where: { hash: hashToken(key) },
    update: { revokedAt: null, environmentId },
    create: { id: newId("apiKey"), environmentId, name, hash: hashToken(key), prefix: displayPrefix(key) },
  });
}

// The environment's keys as the API and the console list them: never the key or its hash, only
// the first characters (enough to recognise one in a config file).

export const ApiKeyIn = z.object({ name: z.string().trim().min(1, "must not be empty").max(128) });
export type ApiKeyIn = z.infer<typeof ApiKeyIn>;

type ApiKeyRow = { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

function serializeApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}
export type ApiKeyOut = ReturnType<typeof serializeApiKey>;

const SELECT = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** Newest first; revoked keys stay listed (with revokedAt) so their history is visible. */
export async function listApiKeys(scope: Scope, q: ListQuery) {
  const page = await paginate(q, "descending", "apiKey", (p) =>
    db.apiKey.findMany({
      where: { environmentId: scope.environmentId, ...cursorWhere(p) },
      orderBy: { id: p.direction },
      take: p.take,
      select: SELECT,
    }),
  );
  return toListResponse(page, serializeApiKey);
}

/** A new key for the environment; `key` is in this answer only. */
export async function createEnvironmentApiKey(principal: Principal, input: ApiKeyIn) {
  assertOperatorOwner(principal);
  const { id, key } = await createApiKey(principal.environmentId, input.name);
  const row = await db.apiKey.findUniqueOrThrow({ where: { id }, select: SELECT });
  return { ...serializeApiKey(row), key };
}

/** Revokes a key of the environment (idempotent); requests with it fail within the auth cache's 5 s. */
export async function revokeApiKey(principal: Principal, id: string) {
  assertOperatorOwner(principal);
  const scope = scopeOf(principal);
  await db.apiKey.updateMany({ where: { id, environmentId: scope.environmentId, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await db.apiKey.findFirst({ where: { id, environmentId: scope.environmentId }, select: SELECT });
  if (!row) throw notFound("API key");
  return serializeApiKey(row);
}

const LAST_USED_EVERY_MS = 60_000;

/**
 * Records that a key was used, at most once a minute per key (the publish path must not write a
 * row per request); called when a key is looked up, i.e. at most every few seconds per process.
 */
export async function touchApiKey(id: string): Promise<void> {
  await db.apiKey.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(Date.now() - LAST_USED_EVERY_MS) } }] },
    data: { lastUsedAt: new Date() },
  });
}
