import { z } from "zod";
import { db } from "../db";
import { hasPrefix } from "../ids";
import { logger } from "../logger";
import { processWide } from "../process-wide";

// Which sites may frame the consumer portal (CSP frame-ancestors on /portal pages, proxy.ts):
// the server-wide HERALD_PORTAL_FRAME_ANCESTORS, plus the origins an environment lists in its
// settings (portalEmbedOrigins), so one Herald can serve several operators' dashboards without
// every one of them being allowed to frame every other's portal.
//
// The browser decides whether to render a frame from the response to the page's first load,
// and that load carries the link's key in the URL fragment, which never reaches the server.
// So portal links say which environment they belong to in the query instead
// (`/portal?env=<environment id>#key=…`): not a secret and no access of its own, it only selects
// whose origins are added. The portal keeps `?env=` in its address as you move around, so a
// reload inside the frame is allowed too. A page without it (links minted before, or
// /portal/sign-in) gets the server-wide list alone. Each web process keeps an environment's
// origins for EMBED_ORIGINS_TTL_MS (5 s), so a change reaches every page within that.

export const MAX_EMBED_ORIGINS = 20;

/** An origin as the browser sends it: scheme://host[:port], nothing after. */
const zEmbedOrigin = z.string().trim().transform((v, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(v);
  } catch {
    /* reported below */
  }
  const hint = "give scheme://host[:port] with nothing after it, e.g. https://dashboard.example.com";
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") {
    ctx.addIssue({ code: "custom", message: `"${v}" is not an http(s) origin: ${hint}` });
    return z.NEVER;
  }
  // A trailing slash is fine (the URL's path is "/" either way); an empty "?" or "#" is not.
  if (url.username || url.password || url.pathname !== "/" || /[?#]/.test(v)) {
    ctx.addIssue({ code: "custom", message: `"${v}" is more than an origin (a path, query, fragment or credentials): ${hint}` });
    return z.NEVER;
  }
  if (url.hostname.includes("*")) {
    ctx.addIssue({ code: "custom", message: `"${v}" has a wildcard: list each origin (HERALD_PORTAL_FRAME_ANCESTORS takes wildcards server-wide)` });
    return z.NEVER;
  }
  return url.origin;
});

/** null or [] for none (the server-wide list alone). Duplicates, once normalised, are refused. */
export const zEmbedOrigins = z
  .array(zEmbedOrigin)
  .max(MAX_EMBED_ORIGINS, `at most ${MAX_EMBED_ORIGINS} origins`)
  .superRefine((origins, ctx) => {
    const seen = new Set<string>();
    origins.forEach((o, i) => {
      if (seen.has(o)) ctx.addIssue({ code: "custom", path: [i], message: `${o} is listed twice` });
      seen.add(o);
    });
  });

/** The portal-link query that selects an environment's origins. */
export const EMBED_ENV_PARAM = "env";

/**
 * How long a web process reuses an environment's origins: a page load's many requests (the page,
 * its scripts, its data) then cost one lookup, and a change made through another web process takes
 * effect within this; the process that made it forgets its copy at once (forgetEmbedOrigins).
 */
export const EMBED_ORIGINS_TTL_MS = 5_000;
/** Environments remembered per process; the oldest goes first. */
const EMBED_ORIGINS_CACHED = 1_000;

type Cached = { until: number; origins: Promise<string[]> };
// One per process: a PATCH handled by the route handlers' copy of lib/ forgets what proxy.ts's copy reads.
const cached = () => processWide("heraldEmbedOrigins", () => new Map<string, Cached>());

/**
 * The environment's own origins for a portal page opened with ?env=<id>; none for an unknown id.
 * Cached for EMBED_ORIGINS_TTL_MS, unknown ids too; concurrent requests share one lookup.
 */
export function embedOriginsFor(environmentId: string | null): Promise<string[]> {
  if (!environmentId || !hasPrefix(environmentId, "environment") || environmentId.length > 64) return Promise.resolve([]);
  const cache = cached();
  const now = Date.now();
  const hit = cache.get(environmentId);
  if (hit && hit.until > now) return hit.origins;
  if (hit) cache.delete(environmentId);
  else if (cache.size >= EMBED_ORIGINS_CACHED) cache.delete(cache.keys().next().value ?? "");
  const origins: Promise<string[]> = db.environment
    .findUnique({ where: { id: environmentId }, select: { portalEmbedOrigins: true } })
    .then(
      (row) => row?.portalEmbedOrigins ?? [],
      (err: unknown) => {
        // Database unreachable: still serve the page (its API calls will say what is wrong), framed
        // by the server-wide list alone, rather than a bare 500 from the proxy. Not remembered: the
        // next request tries again.
        if (cache.get(environmentId)?.origins === origins) cache.delete(environmentId);
        logger.warn({ err, environmentId }, "portal embedding origins unavailable; using HERALD_PORTAL_FRAME_ANCESTORS alone");
        return [];
      },
    );
  cache.set(environmentId, { until: now + EMBED_ORIGINS_TTL_MS, origins });
  return origins;
}

/** After a change of the environment's origins: this process's next page uses them at once. */
export function forgetEmbedOrigins(environmentId: string): void {
  cached().delete(environmentId);
}

/** The CSP directive: the server-wide source list and the environment's origins, one header line. */
export function frameAncestors(setting: string, extraOrigins: string[] = []): string {
  // No directive breaks: the setting is a space-separated source list.
  const sources = setting.replace(/[;,\r\n]+/g, " ").trim().split(/\s+/).filter(Boolean);
  // 'none' must stand alone; an environment that lists origins means "these, at least".
  const merged = extraOrigins.length > 0 ? sources.filter((s) => s !== "'none'") : sources;
  for (const o of extraOrigins) if (!merged.includes(o)) merged.push(o);
  return `frame-ancestors ${merged.length > 0 ? merged.join(" ") : "'none'"}`;
}
