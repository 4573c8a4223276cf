import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, openPortal, serverUrl, shot, test } from "./fixtures";

// The portal inside an <iframe> on the operator's own site: another origin (127.0.0.2, a
// different site from 127.0.0.1) with third-party cookies blocked. It must work without any
// cookie (the session is a bearer header kept in memory), and only origins listed in
// HERALD_PORTAL_FRAME_ANCESTORS (e2e/start-server.mjs allows http://127.0.0.2:*) or in the
// environment's portalEmbedOrigins (for links carrying ?env=) may frame it.

test.use({
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--test-third-party-cookie-phaseout"],
  },
});

/** A page on `host` framing the portal; `iframeSrc` may be set after the server has its port. */
async function hostPage(host: string, iframeSrc: string | (() => string)): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><html><head><title>Operator dashboard</title></head><body style="margin:0;font-family:sans-serif">
      <header style="padding:8px;background:#222;color:#fff">Acme operator dashboard (${host})</header>
      <iframe title="Webhooks portal" src="${typeof iframeSrc === "string" ? iframeSrc : iframeSrc()}" style="width:100%;height:1000px;border:0"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}/`, server };
}

test("works in an iframe on another site with third-party cookies blocked", async ({ page, operator }) => {
  const app = await operator.createApp("Embedded Co");
  const link = await operator.portalLink(app.id);
  const host = await hostPage("127.0.0.2", link.url);
  try {
    await page.goto(host.url);
    const frame = page.frameLocator("iframe[title='Webhooks portal']");
    await expect(frame.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
    await expect(frame.getByText("Embedded Co")).toBeVisible();

    // The browser really blocks third-party cookies in this frame…
    const portalFrame = page.frames().find((f) => f.url().startsWith(serverUrl()))!;
    expect(await portalFrame.evaluate(() => {
      document.cookie = "probe=1; SameSite=None; Secure; Path=/";
      return document.cookie;
    })).toBe("");
    // …and the portal never relied on one.
    expect(await page.context().cookies()).toEqual([]);
    expect(portalFrame.url()).not.toContain("#key=");

    // Reads and writes work through the bearer session: add an endpoint, see it listed, move around.
    await frame.getByRole("link", { name: "Add endpoint" }).click();
    await frame.getByLabel("Endpoint URL").fill("https://hooks.example.com/embedded");
    await expect(frame.getByText("Herald can deliver to this URL")).toBeVisible();
    await frame.getByRole("button", { name: "Create endpoint" }).click();
    await expect(frame.getByText("Endpoint created")).toBeVisible();
    await frame.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    await expect(frame.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
    await frame.getByRole("navigation").getByRole("link", { name: "Endpoints", exact: true }).click();
    await expect(frame.getByRole("link", { name: "https://hooks.example.com/embedded" })).toBeVisible();
    // Cross-site frames render in their own process; a viewport screenshot captures them.
    await shot(page, "portal-embedded-iframe", { fullPage: false });
  } finally {
    host.server.close();
  }
});

test("sends frame-ancestors on portal pages only, and a site not listed cannot frame it", async ({ page, operator }) => {
  const res = await fetch(`${serverUrl()}/portal`);
  expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'self' http://127.0.0.2:*");
  const api = await fetch(`${serverUrl()}/api/v1/health/ping`);
  expect(api.headers.get("content-security-policy")).toBeNull();

  const app = await operator.createApp("Framed Co");
  const link = await operator.portalLink(app.id);
  const refused: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors|Refused to frame/i.test(m.text())) refused.push(m.text());
  });
  const host = await hostPage("127.0.0.3", link.url);
  try {
    await page.goto(host.url);
    await expect.poll(() => refused.length, { message: "Chromium reports the refused frame" }).toBeGreaterThan(0);
    const frame = page.frameLocator("iframe[title='Webhooks portal']");
    await expect(frame.getByRole("heading", { name: "Endpoints" })).toHaveCount(0);
  } finally {
    host.server.close();
  }
});

test("keeps working when the browser refuses storage (session in memory only)", async ({ page, operator }) => {
  // What Chromium does in third-party frames: sessionStorage throws. Reproduced first-party here
  // so the rest of the portal can be driven directly.
  await page.addInitScript(() => {
    Object.defineProperty(window, "sessionStorage", {
      get() {
        throw new DOMException("The document is sandboxed and lacks the 'allow-same-origin' flag.", "SecurityError");
      },
    });
  });
  const app = await operator.createApp("No Storage Co");
  const link = await operator.portalLink(app.id);
  await openPortal(page, link.url);
  for (const name of ["Event catalog", "Delivery logs", "Failures", "Verify signatures", "Endpoints"]) {
    await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
  }
  // A reload keeps the session (kept in the frame's window.name, storage being refused)…
  await page.reload();
  await expect(page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
  await expect(page.getByText("No Storage Co")).toBeVisible();
  // …and signing out ends it for good, also across a reload.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "You have signed out" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "You have signed out" })).toBeVisible();
  expect(await page.evaluate(() => window.name)).not.toContain("hps_");
});

test("a reload inside the cross-site iframe keeps the session", async ({ page, operator }) => {
  const app = await operator.createApp("Reload Co");
  const link = await operator.portalLink(app.id);
  const host = await hostPage("127.0.0.2", link.url);
  try {
    await page.goto(host.url);
    const frame = page.frameLocator("iframe[title='Webhooks portal']");
    await expect(frame.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
    const portalFrame = () => page.frames().find((f) => f.url().startsWith(serverUrl()))!;
    // The hard case: in this frame the browser refuses storage as well as cookies.
    expect(await portalFrame().evaluate(() => {
      try {
        window.sessionStorage.getItem("probe");
        return "allowed";
      } catch (e) {
        return (e as DOMException).name;
      }
    })).toBe("SecurityError");

    await frame.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    await expect(frame.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
    // Reload the frame itself (what the browser's reload does to an embedded page)…
    await portalFrame().evaluate(() => window.location.reload());
    await expect(frame.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
    await expect(frame.getByText("Reload Co")).toBeVisible();
    // …again, on another page: still signed in, on that page.
    await frame.getByRole("navigation").getByRole("link", { name: "Failures", exact: true }).click();
    await expect(frame.getByRole("heading", { name: "Failures", level: 1 })).toBeVisible();
    await portalFrame().evaluate(() => window.location.reload());
    await expect(frame.getByRole("heading", { name: "Failures", level: 1 })).toBeVisible();
    await expect(frame.getByText("Open the portal from your link")).toHaveCount(0);
    expect(await page.context().cookies()).toEqual([]);
    await shot(page, "portal-embedded-after-reload", { fullPage: false, doc: true });
  } finally {
    host.server.close();
  }
});

test("an environment's own embedding origins may frame its portal links, also across a reload; links without ?env= may not", async ({ page, operator }) => {
  // 127.0.0.3 is not in the server-wide list (start-server.mjs); this environment lists it.
  let src = "";
  const host = await hostPage("127.0.0.3", () => src);
  try {
    const origin = new URL(host.url).origin;
    const set = await operator.api("PATCH", "/environment/settings", { portalEmbedOrigins: [origin] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.portalFrameAncestors).toBe(`frame-ancestors 'self' http://127.0.0.2:* ${origin}`);

    const app = await operator.createApp("Own Origin Co");
    const link = await operator.portalLink(app.id);
    expect(new URL(link.url).searchParams.get("env")).toBe(operator.environmentId);
    src = link.url;
    await page.goto(host.url);
    const frame = page.frameLocator("iframe[title='Webhooks portal']");
    await expect(frame.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
    await expect(frame.getByText("Own Origin Co")).toBeVisible();

    // Framed, the portal keeps ?env= in its address as you move, so a reload is framed too.
    const portalFrame = () => page.frames().find((f) => f.url().startsWith(serverUrl()))!;
    await frame.getByRole("navigation").getByRole("link", { name: "Delivery logs", exact: true }).click();
    await expect(frame.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
    await expect.poll(() => new URL(portalFrame().url()).searchParams.get("env")).toBe(operator.environmentId);
    // Also after a page rewrites its own query (the log filters replace it).
    await frame.getByRole("button", { name: "Last hour" }).click();
    await expect.poll(() => new URL(portalFrame().url()).searchParams.get("after")).not.toBeNull();
    await expect.poll(() => new URL(portalFrame().url()).searchParams.get("env")).toBe(operator.environmentId);
    await portalFrame().evaluate(() => window.location.reload());
    await expect(frame.getByRole("heading", { name: "Delivery logs", level: 1 })).toBeVisible();
    await expect(frame.getByText("Own Origin Co")).toBeVisible();
    await shot(page, "portal-embedded-environment-origin", { fullPage: false, doc: true });

    // The same site framing a link without ?env= (minted before this setting existed) is refused.
    const refused: string[] = [];
    page.on("console", (m) => {
      if (/frame-ancestors|Refused to frame/i.test(m.text())) refused.push(m.text());
    });
    const old = await operator.portalLink(app.id);
    const u = new URL(old.url);
    u.search = "";
    src = u.toString();
    await page.goto(host.url);
    await expect.poll(() => refused.length, { message: "Chromium reports the refused frame" }).toBeGreaterThan(0);
    await expect(frame.getByRole("heading", { name: "Endpoints" })).toHaveCount(0);
  } finally {
    host.server.close();
  }
});
