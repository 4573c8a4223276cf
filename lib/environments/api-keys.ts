import { db } from "../db";
import { hashToken, randomToken } from "../crypto/tokens";
import { newId } from "../ids";

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
