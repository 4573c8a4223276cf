import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTenant, type Tenant } from "./helpers/tenant";
import { browser, createMember, uniqueEmail } from "./helpers/accounts";

// Passwords of signed-in users (POST /api/account/password): an operator invited by email has
// none and sets one after following the invitation (then signs in with it); a user with one
// changes it with the current one, which ends their other sessions. Tried with bad input the
// way a careless or hostile client would send it.

const ENV = "x-herald-environment";
const JSON_CSRF = { "content-type": "application/json", "x-herald-csrf": "1" };

describe("setting and changing a password", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant("passwords");
  });

  const setPassword = (br: ReturnType<typeof browser>, body: unknown, headers: Record<string, string> = JSON_CSRF) =>
    br.request("POST", "/api/account/password", { body: typeof body === "string" ? body : JSON.stringify(body), headers });

  it("an operator invited by email sets a password after the link, then signs in with it", async () => {
    const email = uniqueEmail("invited-op");
    const invite = await t.api("POST", "/environment/member", { email, role: "admin" });
    expect(invite.status).toBe(201);
    const br = browser();
    const u = new URL(invite.body.invite.url as string);
    const landed = await br.request("GET", u.pathname + u.search);
    expect(landed.headers.get("location")).toMatch(/\/account\?welcome=1&next=\/console$/);
    const page = await br.request("GET", "/account?welcome=1&next=/console");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Welcome: set your password");
    // This server has no SMTP: no email links to fall back on, so skipping is not offered.
    expect(page.text).not.toContain("Skip for now");
    expect(page.text).toContain("set your password now, it is how you will sign in next time");
    expect(page.text).not.toContain("without waiting for an email");

    const password = `first-${Date.now()}-password`;
    const set = await setPassword(br, { newPassword: password });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ hadPassword: false, otherSessionsEnded: 0 });
    const stored = await db.user.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(set.text).not.toContain(stored.passwordHash!);
    // This browser stays signed in; the welcome step is now skipped.
    expect((await br.api("GET", "/app", undefined, { [ENV]: t.environmentId })).status).toBe(200);
    expect((await br.request("GET", "/account?welcome=1&next=/console")).headers.get("location")).toMatch(/\/console$/);

    const again = browser();
    expect((await again.signIn(email, password)).error).toBeNull();
    expect((await again.api("GET", "/app")).status).toBe(200);

    // The link again: used, and (no email here) the page says who can issue a new one, not "below".
    const replayed = await browser().request("GET", u.pathname + u.search);
    expect(replayed.headers.get("location")).toMatch(/error=Verification$/);
    const shown = await browser().request("GET", "/sign-in?error=Verification");
    expect(shown.text).toContain("ask whoever invited you (an owner or admin) for a new invitation");
    expect(shown.text).not.toContain("Ask for a new one below");
    const portalShown = await browser().request("GET", "/portal/sign-in?error=Verification");
    expect(portalShown.text).toContain("ask whoever invited you (an owner or admin) for a new invitation");
  });

  it("changing needs the current password; a new one ends the other sessions, not this one", async () => {
    const m = await createMember(t.environmentId, "viewer");
    const [here, elsewhere] = [browser(), browser()];
    for (const br of [here, elsewhere]) expect((await br.signIn(m.email, m.password)).error).toBeNull();

    const missing = await setPassword(here, { newPassword: "another-long-password" });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "current_password_missing" });
    const wrong = await setPassword(here, { currentPassword: "not-my-password", newPassword: "another-long-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: "current_password_wrong", detail: "The current password is wrong" });
    expect((await elsewhere.api("GET", "/app")).status).toBe(200);

    const next = `changed-${Date.now()}-password`;
    const ok = await setPassword(here, { currentPassword: m.password, newPassword: next });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ hadPassword: true, otherSessionsEnded: 1 });
    expect((await here.api("GET", "/app")).status).toBe(200);
    expect((await elsewhere.api("GET", "/app")).status).toBe(401);
    expect((await browser().signIn(m.email, m.password)).error).toBe("Wrong email or password.");
    expect((await browser().signIn(m.email, next)).error).toBeNull();
  });

  it("answers bad input with a 4xx that names what is wrong", async () => {
    const m = await createMember(t.environmentId, "owner");
    const br = browser();
    expect((await br.signIn(m.email, m.password)).error).toBeNull();
    expect((await setPassword(browser(), { newPassword: "long-enough-password" })).status).toBe(401);
    const noCsrf = await setPassword(br, { currentPassword: m.password, newPassword: "long-enough-password" }, { "content-type": "application/json" });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe("csrf_header_missing");
    const short = await setPassword(br, { currentPassword: m.password, newPassword: "short" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: "weak_password", detail: expect.stringContaining("at least 10") });
    const absent = await setPassword(br, { currentPassword: m.password });
    expect(absent.status).toBe(422);
    expect(absent.body.detail[0].loc).toEqual(["body", "newPassword"]);
    expect((await setPassword(br, { newPassword: 12345678901 })).status).toBe(422);
    expect((await setPassword(br, { newPassword: "long-enough-password", extra: 1 })).status).toBe(422);
    expect((await setPassword(br, "{not json")).status).toBe(400);
    // None of these changed it.
    expect((await browser().signIn(m.email, m.password)).error).toBeNull();
  });
});
