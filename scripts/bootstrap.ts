// Run by `npm run up` once the server is ready: the default environment, HERALD_BOOTSTRAP_API_KEY
// and HERALD_BOOTSTRAP_ADMIN_* if set (lib/accounts/bootstrap.ts; the web process applies those
// at boot too), on a first run the operator API key and an owner with a one-time password (both
// printed once), and the demo application with a portal link. Prints one JSON line for up.mjs.
import { env } from "../lib/env";
import { db } from "../lib/db";
import { createApiKey } from "../lib/environments/api-keys";
import { applyBootstrapSettings, ensureFirstOwner } from "../lib/accounts/bootstrap";
import { ensureDemo } from "../lib/demo/ensure-demo";

const config = env();
const environment = await applyBootstrapSettings(config);

const keys = await db.apiKey.count({ where: { environmentId: environment.id, name: { not: "bootstrap" } } });
let apiKey: string | null = null;
if (keys === 0) apiKey = (await createApiKey(environment.id, "first run")).key;
// The oldest key still valid, to name on later runs (a revoked one is no key to point to).
const first = await db.apiKey.findFirst({ where: { environmentId: environment.id, revokedAt: null }, orderBy: { id: "asc" } });

// An owner for the console: HERALD_BOOTSTRAP_ADMIN_* (above), or else, once, a generated one.
const owner = await ensureFirstOwner(environment.id);
const ownerEmail =
  owner?.email ??
  (await db.environmentMembership.findFirst({ where: { environmentId: environment.id, role: "owner" }, orderBy: { createdAt: "asc" }, select: { user: { select: { email: true } } } }))?.user.email ??
  null;

// --demo-receiver <url>: where the demo endpoint points (the demo receiver started by up.mjs).
const flag = process.argv.indexOf("--demo-receiver");
const receiver = flag > 0 ? process.argv[flag + 1] : undefined;
const portalUrl = receiver ? (await ensureDemo(environment.id, receiver)).portalUrl : null;

console.log(
  JSON.stringify({ environmentId: environment.id, apiKey, apiKeyPrefix: first?.prefix ?? null, portalUrl, ownerEmail, ownerPassword: owner?.password ?? null }),
);
await db.$disconnect();
process.exit(0);
