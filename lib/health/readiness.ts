import { env } from "../env";
import { logger } from "../logger";
import { applyBootstrapSettings } from "../accounts/bootstrap";
import { processWide } from "../process-wide";

// Readiness of the web process for its bootstrap credentials: /api/v1/health answers 503
// "starting" until HERALD_BOOTSTRAP_* (API key, owner) have been applied to the database, so a
// scripted setup that waits for health and then calls the API never sees a 401. Started from
// instrumentation.ts; one per process (lib/process-wide.ts) because route handlers and the instrumentation hook
// are separate bundles of the same process.

const RETRY_MS = 1_000;
type Bootstrap = { started: boolean; ready: boolean; error: string | null };
const boot = () => processWide<Bootstrap>("heraldBootstrap", () => ({ started: false, ready: false, error: null }));

export function bootstrapState(): { ready: boolean; error: string | null } {
  const { ready, error } = boot();
  return { ready, error };
}

export function startBootstrap(): void {
  const state = boot();
  if (state.started) return;
  state.started = true;
  const config = env();
  if (!config.HERALD_BOOTSTRAP_API_KEY && !config.HERALD_BOOTSTRAP_ADMIN_EMAIL) {
    state.ready = true;
    return;
  }
  const attempt = () => {
    applyBootstrapSettings(config)
      .then(() => {
        state.ready = true;
        state.error = null;
        logger.info({}, "bootstrap settings applied");
      })
      .catch((e: unknown) => {
        // The database may still be starting (or not migrated yet): try again.
        state.error = e instanceof Error ? e.message : String(e);
        logger.warn({ err: e }, "bootstrap settings not applied yet; retrying");
        setTimeout(attempt, RETRY_MS).unref();
      });
  };
  attempt();
}
