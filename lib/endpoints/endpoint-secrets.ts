import { invalid } from "../http/errors";
import { secretBox } from "../services";
import { generateEd25519Keys, generateWebhookSecret, SECRET_PREFIX, secretProblem } from "../signing/secrets";
import type { Endpoint, SigningAlgorithm } from "../generated/prisma/client";

export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;

/** New key material for an endpoint, sealed for storage. */
export function newSigningKey(algorithm: SigningAlgorithm, supplied?: string | null, loc = ["body", "secret"]) {
  if (algorithm === "ed25519") {
    if (supplied) throw invalid(loc, "cannot be supplied for ed25519 endpoints; Herald generates the key pair");
    const { secretKey, publicKey } = generateEd25519Keys();
    return { secretEncrypted: secretBox().seal(secretKey), publicKey };
  }
  let secret = supplied ?? generateWebhookSecret();
  if (!secret.startsWith(SECRET_PREFIX)) secret = SECRET_PREFIX + secret;
  const problem = secretProblem(secret);
  if (problem) throw invalid(loc, problem);
  return { secretEncrypted: secretBox().seal(secret), publicKey: null };
}

/** The secret shown to the endpoint's owner: whsec_ for HMAC, the public whpk_ key for ed25519. */
export function visibleSecret(ep: Endpoint): string {
  return ep.signingAlgorithm === "ed25519" ? ep.publicKey! : secretBox().open(ep.secretEncrypted);
}

/** The keys that sign a delivery now: the current one, plus the previous during its grace window. */
export function signingKeys(ep: Endpoint, now = new Date()): string[] {
  const keys = [secretBox().open(ep.secretEncrypted)];
  if (ep.previousSecretEncrypted && ep.previousSecretExpiresAt && ep.previousSecretExpiresAt > now)
    keys.push(secretBox().open(ep.previousSecretEncrypted));
  return keys;
}
