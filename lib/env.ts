import { z } from "zod";
import { parseCidr } from "./ssrf/ip-policy";
import { REDIS_MODES, RedisConfigError, parseRedisTopology } from "./queue/redis-topology.mjs";

// The one place that reads process.env. Parsed once, at boot (instrumentation.ts for the web
// process, worker/index.ts for the worker): a bad setting stops start-up with its name.

const urlSafe = /^[A-Za-z0-9_-]+$/;

const secondsList = z
  .string()
  .trim()
  .regex(/^\d+(\s*,\s*\d+)*$/, "must be comma-separated whole seconds, e.g. 1,1,2")
  .transform((s) => s.split(",").map((n) => Number(n.trim())));

const cidrList = z
  .string()
  .trim()
  .transform((s) =>
    s
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean),
  )
  .superRefine((cidrs, ctx) => {
    for (const c of cidrs)
      if (!parseCidr(c)) ctx.addIssue({ code: "custom", message: `"${c}" is not a CIDR like 127.0.0.1/32` });
  });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const fields = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string({ error: "is required, e.g. postgresql://user:pass@127.0.0.1:5432/herald" })
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL"),
  // Named prepared statements in lib/sql.ts; off behind PgBouncer < 1.21 in transaction pooling,
  // which cannot keep a statement prepared on one server connection for the next transaction.
  HERALD_PG_PREPARED_STATEMENTS: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("true")
    .transform((v) => v === "true"),
  // How REDIS_URL is read (lib/queue/redis-topology.mjs): one server; a cluster's seed nodes,
  // comma-separated; or the sentinels, comma-separated, watching the master named below.
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  HERALD_REDIS_MODE: z.enum(REDIS_MODES as ["standalone", "cluster", "sentinel"]).default("standalone"),
  HERALD_REDIS_SENTINEL_NAME: z.string().optional(),
  HERALD_REDIS_SENTINEL_PASSWORD: z.string().optional(),
  // Prefix for every Redis key, so several Herald instances (or test runs) can share a server.
  HERALD_REDIS_PREFIX: z.string().regex(urlSafe).default("herald"),
  HERALD_PUBLIC_URL: z.url().optional(),
  HERALD_ENCRYPTION_KEY: z
    .string({ error: "is required: 32 random bytes, base64 (npm run up generates one into .env)" })
    .refine((k) => Buffer.from(k, "base64").length === 32, "must be 32 bytes encoded as base64"),
  HERALD_BOOTSTRAP_API_KEY: z
    .string()
    .min(32, "must be at least 32 characters")
    .regex(urlSafe, "may only contain A-Z a-z 0-9 _ -")
    .optional(),
  // Ensured as an owner of the default environment with this password (scripts/bootstrap.ts).
  HERALD_BOOTSTRAP_ADMIN_EMAIL: z.email("must be an email address").optional(),
  HERALD_BOOTSTRAP_ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").max(1024).optional(),
  // Email sign-in links and invitations (lib/accounts/mail.ts): both or neither.
  HERALD_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.com:465")
    .optional(),
  HERALD_EMAIL_FROM: z.string().min(3).optional(),
  // OpenID Connect sign-in (company SSO): all three or none. The issuer's discovery document is
  // read from <issuer>/.well-known/openid-configuration.
  HERALD_OIDC_ISSUER: z.url().optional(),
  HERALD_OIDC_CLIENT_ID: z.string().min(1).optional(),
  HERALD_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  HERALD_OIDC_NAME: z.string().min(1).max(60).default("Single sign-on"),
  // Behind a reverse proxy: take the client address (sign-in rate limits) from the last
  // X-Forwarded-For entry instead of the connection.
  HERALD_TRUST_PROXY: z.enum(["0", "1", "true", "false"]).default("0").transform((v) => v === "1" || v === "true"),
  HERALD_RETRY_SCHEDULE: secondsList.optional(),
  HERALD_ALLOW_PRIVATE_NETWORKS: cidrList.default([]),
  HERALD_REQUEST_TIMEOUT_MS: positiveInt(15_000),
  HERALD_CONNECT_TIMEOUT_MS: positiveInt(5_000),
  HERALD_DEAD_LETTER_RETENTION_DAYS: positiveInt(30),
  HERALD_WORKER_CONCURRENCY: positiveInt(200),
  HERALD_ENDPOINT_CONCURRENCY: positiveInt(10),
  // Delivery engine (lib/delivery): first wait of an open circuit breaker before its probe;
  // auto-disable of an endpoint without a success for this long and at least this many failures;
  // how often the sweeper re-enqueues due deliveries missing from Redis; how soon a job of a
  // killed worker counts as stalled (BullMQ lock duration and stalled-check interval).
  HERALD_CIRCUIT_COOLDOWN_MS: positiveInt(30_000),
  HERALD_AUTO_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(120),
  HERALD_AUTO_DISABLE_MIN_FAILURES: positiveInt(10),
  HERALD_DELIVERY_SWEEP_MS: z.coerce.number().int().min(100).default(10_000),
  HERALD_WORKER_STALLED_MS: z.coerce.number().int().min(1_000).default(30_000),
  // The worker's Prometheus /metrics listener (0 turns it off); the web app serves /metrics itself.
  HERALD_WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  HERALD_WORKER_METRICS_HOST: z.string().default("127.0.0.1"),
  // Origins allowed to embed the portal in an iframe (CSP frame-ancestors), space-separated.
  HERALD_PORTAL_FRAME_ANCESTORS: z.string().default("'self'"),
  HERALD_DATA_DIR: z.string().default(".data"),
  // Async tasks (lib/tasks): how many run at once per worker, rows per batch, an optional pause
  // between batches (throttles bulk work), the lease a running task's worker renews, and how often
  // the sweeper looks for tasks to start or resume.
  HERALD_TASK_CONCURRENCY: positiveInt(4),
  HERALD_TASK_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(500),
  HERALD_TASK_BATCH_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  HERALD_TASK_LEASE_MS: z.coerce.number().int().min(1_000).default(15_000),
  HERALD_TASK_SWEEP_MS: z.coerce.number().int().min(100).default(5_000),
  // A replay that would create more deliveries than this needs the confirmation token of a dry run.
  HERALD_REPLAY_CONFIRM_THRESHOLD: z.coerce.number().int().min(0).default(100),
  // Flow control of bulk tasks (normal traffic first): at most this many of a task's deliveries
  // waiting for their attempt, and a pause while the delivery queue has more jobs waiting than this.
  HERALD_TASK_MAX_IN_FLIGHT: positiveInt(100),
  HERALD_TASK_MAX_QUEUE_DEPTH: positiveInt(500),
  HERALD_EXPORT_MAX_ROWS: positiveInt(1_000_000),
  HERALD_EXPORT_RETENTION_HOURS: positiveInt(24),
  // Lifetime of signed links (export downloads, task event streams).
  HERALD_SIGNED_LINK_TTL_S: positiveInt(900),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
})
  .superRefine((e, ctx) => {
    const together = (names: (keyof typeof e)[], what: string) => {
      const set = names.filter((n) => e[n] !== undefined);
      if (set.length > 0 && set.length < names.length)
        for (const n of names.filter((n) => e[n] === undefined))
          ctx.addIssue({ code: "custom", path: [n], message: `is required with ${set.join(", ")} (${what})` });
    };
    together(["HERALD_SMTP_URL", "HERALD_EMAIL_FROM"], "email sign-in");
    together(["HERALD_OIDC_ISSUER", "HERALD_OIDC_CLIENT_ID", "HERALD_OIDC_CLIENT_SECRET"], "OpenID Connect sign-in");
    together(["HERALD_BOOTSTRAP_ADMIN_EMAIL", "HERALD_BOOTSTRAP_ADMIN_PASSWORD"], "the bootstrap owner");
  });

// REDIS_URL's shape depends on HERALD_REDIS_MODE: checked together, the message names the variable.
const schema = fields.superRefine((e, ctx) => {
  try {
    parseRedisTopology({
      mode: e.HERALD_REDIS_MODE,
      url: e.REDIS_URL,
      sentinelName: e.HERALD_REDIS_SENTINEL_NAME,
      sentinelPassword: e.HERALD_REDIS_SENTINEL_PASSWORD,
    });
  } catch (err) {
    if (!(err instanceof RedisConfigError)) throw err;
    ctx.addIssue({ code: "custom", path: [err.variable], message: err.detail });
  }
});

export type Env = z.infer<typeof schema> & { HERALD_PUBLIC_URL: string };

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" (a blank line in .env must not fail a regex).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return { ...env, HERALD_PUBLIC_URL: env.HERALD_PUBLIC_URL ?? `http://localhost:${env.PORT}` };
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * next-auth reads its own address from process.env.NEXTAUTH_URL and has no option for it: set it
 * from HERALD_PUBLIC_URL (lib/accounts/auth-options.ts calls this before next-auth runs).
 */
export function pinNextAuthUrl(): void {
  process.env.NEXTAUTH_URL = `${env().HERALD_PUBLIC_URL}/api/auth`;
}
