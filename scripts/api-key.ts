// npm run api-key [name] — mint another operator API key for the default environment.
import { db } from "../lib/db";
import { createApiKey } from "../lib/environments/api-keys";
import { ensureDefaultEnvironment } from "../lib/environments/ensure-environment";

const name = process.argv[2] ?? "cli";
const { environment } = await ensureDefaultEnvironment();
const { key } = await createApiKey(environment.id, name);
console.log(`New API key for environment ${environment.id} (shown once):\n${key}`);
await db.$disconnect();
