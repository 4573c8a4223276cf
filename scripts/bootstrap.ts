// Run by `npm run up` once the server answers: the default environment, the operator API key
// (printed once), HERALD_BOOTSTRAP_API_KEY if set, and the demo application with a portal link.
// Prints one JSON line for up.mjs.
import { env } from "../lib/env";
import { db } from "../lib/db";
import { createApiKey, ensureApiKey } from "../lib/environments/api-keys";
import { ensureDefaultEnvironment } from "../lib/environments/ensure-environment";
import { ensureDemo } from "../lib/demo/ensure-demo";

const { environment } = await ensureDefaultEnvironment();
const config = env();
if (config.HERALD_BOOTSTRAP_API_KEY) await ensureApiKey(environment.id, config.HERALD_BOOTSTRAP_API_KEY, "bootstrap");

const keys = await db.apiKey.count({ where: { environmentId: environment.id, name: { not: "bootstrap" } } });
let apiKey: string | null = null;
if (keys === 0) apiKey = (await createApiKey(environment.id, "first run")).key;
const first = await db.apiKey.findFirst({ where: { environmentId: environment.id }, orderBy: { id: "asc" } });

// --demo-receiver <url>: where the demo endpoint points (the demo receiver started by up.mjs).
const flag = process.argv.indexOf("--demo-receiver");
const receiver = flag > 0 ? process.argv[flag + 1] : undefined;
const portalUrl = receiver ? (await ensureDemo(environment.id, receiver)).portalUrl : null;

console.log(JSON.stringify({ environmentId: environment.id, apiKey, apiKeyPrefix: first?.prefix ?? null, portalUrl }));
await db.$disconnect();
process.exit(0);
