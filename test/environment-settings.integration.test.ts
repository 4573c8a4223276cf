import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY_SCHEDULE } from "@/lib/delivery/retry-schedule";
import { EMBED_ORIGINS_TTL_MS } from "@/lib/environments/portal-embedding";
import { baseUrl, createTenant, type Tenant } from "./helpers/tenant";
import { receiverPool } from "./helpers/receiver";
import { portalSession } from "./helpers/portal";
import { answers, makeApp, makeEndpoint, publish, waitUntil } from "./helpers/delivery";

// The environment's retry schedule (GET/PATCH /environment/settings): endpoints without one of
// their own follow it instead of the platform default, through the shared server and worker
// (which run the default schedule).

const NO_BRANDING = { displayName: null, logoUrl: null, accentColor: null, accentTextColor: null, theme: "system" };
// The test server runs with the default HERALD_PORTAL_FRAME_ANCESTORS ('self').
const NO_EMBEDDING = { portalEmbedOrigins: [], portalFrameAncestors: "frame-ancestors 'self'" };

describe("environment settings", () => {
  let t: Tenant;
  let other: Tenant;
  const receivers = receiverPool();

  beforeAll(async () => {
    t = await createTenant("environment-settings");
    other = await createTenant("environment-settings-other");
  });
  afterAll(async () => {
    await receivers.closeAll();
  });

  /** The delay before the next attempt, measured from the first attempt's record. */
  async function firstRetryDelay(appId: string, endpointId: string, msgId: string) {
    const [first] = await waitUntil(
      "the first attempt",
      () => t.db.attempt.findMany({ where: { messageId: msgId, endpointId } }),
      (x) => x.length >= 1,
    );
    const d = await t.db.delivery.findFirstOrThrow({ where: { messageId: msgId, endpointId } });
    expect(d.status).toBe("pending");
    return d.nextAttemptAt!.getTime() - first!.createdAt.getTime();
  }

  it("starts on the platform default, and retries follow the schedule the environment sets", async () => {
    expect((await t.api("GET", "/environment/settings")).body).toEqual({
      retrySchedule: null,
      effectiveRetrySchedule: DEFAULT_RETRY_SCHEDULE,
      portalBranding: NO_BRANDING,
      ...NO_EMBEDDING,
    });
    const set = await t.api("PATCH", "/environment/settings", { retrySchedule: [40, 60] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ retrySchedule: [40, 60], effectiveRetrySchedule: [40, 60], portalBranding: NO_BRANDING, ...NO_EMBEDDING });
    // Another environment is untouched.
    expect((await other.api("GET", "/environment/settings")).body.retrySchedule).toBeNull();

    const appId = await makeApp(t.api);
    const rx = await receivers.start(answers(500));
    const follows = await makeEndpoint(t.api, appId, { url: rx.url });
    const own = await makeEndpoint(t.api, appId, { url: rx.url, retrySchedule: [2] });
    const msgId = await publish(t.api, appId, { environmentSchedule: true });

    // 40 s ± 20% for the endpoint that follows the environment; its own 2 s for the other.
    const envDelay = await firstRetryDelay(appId, follows.id, msgId);
    expect(envDelay).toBeGreaterThanOrEqual(31_900);
    expect(envDelay).toBeLessThanOrEqual(48_100);
    const ownDelay = await firstRetryDelay(appId, own.id, msgId);
    expect(ownDelay).toBeLessThanOrEqual(2_500);

    // null (or []) goes back to the platform default.
    const reset = await t.api("PATCH", "/environment/settings", { retrySchedule: null });
    expect(reset.body).toEqual({ retrySchedule: null, effectiveRetrySchedule: DEFAULT_RETRY_SCHEDULE, portalBranding: NO_BRANDING, ...NO_EMBEDDING });
    const again = await publish(t.api, appId, { environmentSchedule: "default" });
    const defaultDelay = await firstRetryDelay(appId, follows.id, again);
    expect(defaultDelay).toBeGreaterThanOrEqual(3_900);
    expect(defaultDelay).toBeLessThanOrEqual(6_500);
  });

  it("is for operators only: a portal session cannot read or change it", async () => {
    const appId = await makeApp(t.api);
    const portal = await portalSession(t, appId);
    expect((await portal.api("GET", "/environment/settings")).status).toBe(403);
    expect((await portal.api("PATCH", "/environment/settings", { retrySchedule: [1] })).status).toBe(403);
    expect((await t.api("GET", "/environment/settings")).body.retrySchedule).toBeNull();
  });

  it("sets the portal's branding field by field, without touching the retry schedule, and the portal reads it", async () => {
    const b = await createTenant("environment-branding");
    await b.api("PATCH", "/environment/settings", { retrySchedule: [30] });
    const set = await b.api("PATCH", "/environment/settings", {
      portalBranding: { displayName: "Acme Cloud", accentColor: "#FDE047", theme: "dark", logoUrl: "https://acme.example/logo.svg" },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({
      retrySchedule: [30],
      effectiveRetrySchedule: [30],
      // A light accent gets dark text.
      portalBranding: { displayName: "Acme Cloud", logoUrl: "https://acme.example/logo.svg", accentColor: "#fde047", accentTextColor: "#000000", theme: "dark" },
      ...NO_EMBEDDING,
    });
    // Fields left out stay; null removes one.
    const next = await b.api("PATCH", "/environment/settings", { portalBranding: { logoUrl: null, accentColor: "#0f766e" } });
    expect(next.body.portalBranding).toEqual({ displayName: "Acme Cloud", logoUrl: null, accentColor: "#0f766e", accentTextColor: "#ffffff", theme: "dark" });
    expect(next.body.retrySchedule).toEqual([30]);

    // The portal of any application of the environment gets it with its settings; another environment does not.
    const appId = await makeApp(b.api);
    const portal = await portalSession(b, appId);
    const settings = await portal.api("GET", "/portal/settings");
    expect(settings.body.branding).toEqual(next.body.portalBranding);
    expect((await other.api("GET", "/environment/settings")).body.portalBranding).toEqual(NO_BRANDING);
  });

  it("refuses branding it cannot use with a 422 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ accentColor: "teal" }, "accentColor"],
      [{ logoUrl: "javascript:alert(1)" }, "logoUrl"],
      [{ theme: "sepia" }, "theme"],
      [{ displayName: "" }, "displayName"],
      [{ favicon: "x" }, ""],
    ];
    for (const [portalBranding, field] of cases) {
      const r = await t.api("PATCH", "/environment/settings", { portalBranding });
      expect(r.status, JSON.stringify(portalBranding)).toBe(422);
      const locs = (r.body.detail as { loc: string[] }[]).map((d) => d.loc.join("."));
      expect(locs.some((l) => l.startsWith(`body.portalBranding${field ? "." + field : ""}`)), JSON.stringify(r.body)).toBe(true);
    }
    expect((await t.api("GET", "/environment/settings")).body.portalBranding).toEqual(NO_BRANDING);
  });

  it("adds the environment's embedding origins to the portal's frame-ancestors for links of that environment only", async () => {
    const e = await createTenant("environment-embedding");
    const set = await e.api("PATCH", "/environment/settings", { portalEmbedOrigins: ["https://Dashboard.Acme.example/", "http://127.0.0.2:8080"] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // Stored as the browser compares them: scheme://host[:port], lowercased, no trailing slash.
    expect(set.body.portalEmbedOrigins).toEqual(["https://dashboard.acme.example", "http://127.0.0.2:8080"]);
    expect(set.body.portalFrameAncestors).toBe("frame-ancestors 'self' https://dashboard.acme.example http://127.0.0.2:8080");
    expect(set.body.retrySchedule).toBeNull();

    // A link minted now says which environment it belongs to, in the query (the key stays in the fragment)…
    const appId = await makeApp(e.api);
    const link = await e.api("POST", `/auth/app-portal-access/${appId}`, {});
    const url = new URL(link.body.url);
    expect(url.searchParams.get("env")).toBe(e.environmentId);
    expect(url.hash).toMatch(/^#key=hpt_/);
    // …and its page gets the environment's origins on top of the server-wide list.
    const csp = async (path: string) => (await fetch(`${baseUrl()}${path}`)).headers.get("content-security-policy");
    expect(await csp(`/portal?env=${e.environmentId}`)).toBe(set.body.portalFrameAncestors);
    expect(await csp(`/portal/logs?env=${e.environmentId}`)).toBe(set.body.portalFrameAncestors);
    // Links minted before (no ?env), other environments, unknown and malformed ids: the server-wide list.
    expect(await csp("/portal")).toBe("frame-ancestors 'self'");
    expect(await csp(`/portal?env=${other.environmentId}`)).toBe("frame-ancestors 'self'");
    expect(await csp(`/portal?env=env_01jf3k6m8q9r2s4t5v6w7x8y9z`)).toBe("frame-ancestors 'self'");
    expect(await csp(`/portal?env=${encodeURIComponent("'; script-src *")}`)).toBe("frame-ancestors 'self'");
    // The sign-in pages are never framed by an environment's origins (clickjacking a sign-in form).
    expect(await csp(`/portal/sign-in?env=${e.environmentId}`)).toBe("frame-ancestors 'self'");

    // null (or []) removes them.
    const cleared = await e.api("PATCH", "/environment/settings", { portalEmbedOrigins: null });
    expect(cleared.body).toMatchObject(NO_EMBEDDING);
    expect(await csp(`/portal?env=${e.environmentId}`)).toBe("frame-ancestors 'self'");
  });

  it("a change of the origins written by another web process reaches portal pages within EMBED_ORIGINS_TTL_MS", async () => {
    const e = await createTenant("environment-embedding-cache");
    const page = `${baseUrl()}/portal?env=${e.environmentId}`;
    const csp = async () => (await fetch(page)).headers.get("content-security-policy");
    const before = Date.now();
    expect(await csp()).toBe("frame-ancestors 'self'");
    // The row alone, as another web process's PATCH leaves it for this one.
    await e.db.environment.update({ where: { id: e.environmentId }, data: { portalEmbedOrigins: ["https://elsewhere.example"] } });
    const cachedCsp = await csp();
    // This process still answers from its copy (the page load's requests cost one lookup)…
    if (Date.now() - before < EMBED_ORIGINS_TTL_MS) expect(cachedCsp).toBe("frame-ancestors 'self'");
    // …and takes the change within the TTL.
    await waitUntil("the new origins", csp, (v) => v === "frame-ancestors 'self' https://elsewhere.example", EMBED_ORIGINS_TTL_MS * 3);
  });

  it("refuses embedding origins that are not origins with a 422 naming the entry", async () => {
    const cases: [unknown, string, RegExp][] = [
      [["dashboard.example.com"], "body.portalEmbedOrigins.0", /not an http\(s\) origin/],
      [["https://ok.example", "ftp://files.example"], "body.portalEmbedOrigins.1", /not an http\(s\) origin/],
      [["https://a.example/embed"], "body.portalEmbedOrigins.0", /more than an origin/],
      [["https://a.example?x=1"], "body.portalEmbedOrigins.0", /more than an origin/],
      [["https://user:pw@a.example"], "body.portalEmbedOrigins.0", /more than an origin/],
      [["https://*.example.com"], "body.portalEmbedOrigins.0", /wildcard/],
      [["https://a.example", "https://A.example/"], "body.portalEmbedOrigins.1", /listed twice/],
      [Array.from({ length: 21 }, (_, i) => `https://a${i}.example`), "body.portalEmbedOrigins", /at most 20/],
      ["https://a.example", "body.portalEmbedOrigins", /./],
      [[42], "body.portalEmbedOrigins.0", /./],
    ];
    for (const [portalEmbedOrigins, loc, msg] of cases) {
      const r = await t.api("PATCH", "/environment/settings", { portalEmbedOrigins });
      expect(r.status, JSON.stringify(portalEmbedOrigins)).toBe(422);
      const item = (r.body.detail as { loc: (string | number)[]; msg: string }[]).find((d) => d.loc.join(".") === loc);
      expect(item, `${JSON.stringify(portalEmbedOrigins)} → ${JSON.stringify(r.body)}`).toBeDefined();
      expect(item!.msg).toMatch(msg);
    }
    expect((await t.api("GET", "/environment/settings")).body).toMatchObject(NO_EMBEDDING);
    // A portal session cannot set them.
    const portal = await portalSession(t, await makeApp(t.api));
    expect((await portal.api("PATCH", "/environment/settings", { portalEmbedOrigins: ["https://evil.example"] })).status).toBe(403);
  });
});
