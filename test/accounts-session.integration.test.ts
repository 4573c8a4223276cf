import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { signOutEverywhere } from "@/lib/accounts/sessions";
import { SIGN_IN_MAX_FAILURES } from "@/lib/accounts/rate-limit";
import { baseUrl, createTenant, type Tenant } from "./helpers/tenant";
import { requestJson } from "./helpers/http";
import { browser, createMember, uniqueEmail } from "./helpers/accounts";

// Operators signed in with next-auth (password) call the same /api/v1 routes as API keys, for
// the environments they belong to, tried the way an attacker would: another environment's ids,
// a viewer's writes, no session, a replayed cookie after sign-out, forged headers.

const ENV = "x-herald-environment";

describe("console sessions on the operator API", () => {
  let a: Tenant;
  let b: Tenant;
  let appOfB: { id: string };

  beforeAll(async () => {
    a = await createTenant("accounts-a");
    b = await createTenant("accounts-b");
    appOfB = (await b.api("POST", "/app", { name: "B's customer" })).body;
  });

  it("signs in with a password and uses the API of its environment", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const br = browser();
    const res = await br.signIn(owner.email, owner.password);
    expect(res.error).toBeNull();
    const cookie = [...br.jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
    expect(cookie).toBe("next-auth.session-token"); // http public URL: not __Secure-
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const list = await br.api("GET", "/app");
    expect(list.status).toBe(200);
    const created = await br.api("POST", "/app", { name: "made in the console" }, { [ENV]: a.environmentId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await a.api("GET", `/app/${created.body.id}`)).status).toBe(200);

    const session = await br.request("GET", "/api/auth/session");
    expect(session.body.user).toEqual({ id: owner.userId, email: owner.email, name: null });
    // No secret of any kind in what the browser can read.
    const stored = await db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    for (const r of [res, list, created, session]) {
      expect(r.text).not.toContain(stored.passwordHash!);
      expect(r.text).not.toContain("scrypt$");
      expect(r.text).not.toContain(br.jar.get("next-auth.session-token"));
    }
  });

  it("answers 404 for another environment's ids and for an environment it is not a member of", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const br = browser();
    expect((await br.signIn(owner.email, owner.password)).error).toBeNull();
    expect((await br.api("GET", `/app/${appOfB.id}`)).status).toBe(404);
    expect((await br.api("GET", `/app/${appOfB.id}`, undefined, { [ENV]: a.environmentId })).status).toBe(404);
    const other = await br.api("GET", "/app", undefined, { [ENV]: b.environmentId });
    expect(other.status).toBe(404);
    expect((await br.api("DELETE", `/app/${appOfB.id}`, undefined, { [ENV]: b.environmentId })).status).toBe(404);
    expect((await b.api("GET", `/app/${appOfB.id}`)).status).toBe(200);
  });

  it("lets a viewer read and refuses its writes with 403", async () => {
    const viewer = await createMember(a.environmentId, "viewer");
    const br = browser();
    expect((await br.signIn(viewer.email, viewer.password)).error).toBeNull();
    expect((await br.api("GET", "/app", undefined, { [ENV]: a.environmentId })).status).toBe(200);
    const write = await br.api("POST", "/app", { name: "nope" }, { [ENV]: a.environmentId });
    expect(write.status).toBe(403);
    expect(write.body.detail).toMatch(/viewer/);
  });

  it("needs the environment header on writes (CSRF) and when the user has several environments", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const br = browser();
    expect((await br.signIn(owner.email, owner.password)).error).toBeNull();
    const noHeader = await br.api("POST", "/app", { name: "cross-site" });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.detail).toContain(ENV);

    await db.environmentMembership.create({ data: { id: newId("environmentMembership"), environmentId: b.environmentId, userId: owner.userId, role: "viewer" } });
    const ambiguous = await br.api("GET", "/app");
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.detail).toContain(ENV);
    expect((await br.api("GET", `/app/${appOfB.id}`, undefined, { [ENV]: b.environmentId })).status).toBe(200);
    expect((await br.api("DELETE", `/app/${appOfB.id}`, undefined, { [ENV]: b.environmentId })).status).toBe(403);
  });

  it("answers 401 without a session, with a forged cookie, and after sign-out (the old cookie replayed)", async () => {
    expect((await browser().api("GET", "/app")).status).toBe(401);
    const forged = browser();
    forged.jar.set("next-auth.session-token", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..forged.forged.forged");
    expect((await forged.api("GET", "/app")).status).toBe(401);

    const owner = await createMember(a.environmentId, "owner");
    const br = browser();
    expect((await br.signIn(owner.email, owner.password)).error).toBeNull();
    const stolen = br.jar.get("next-auth.session-token")!;
    expect((await br.api("GET", "/app")).status).toBe(200);
    await br.signOut();
    expect(br.jar.has("next-auth.session-token")).toBe(false);
    const replay = browser();
    replay.jar.set("next-auth.session-token", stolen);
    const replayed = await replay.api("GET", "/app");
    expect(replayed.status).toBe(401);
    // Said as it is, not as "send an API key": a console tab left open after signing out.
    expect(replayed.body.detail).toMatch(/session has ended/);
    expect((await replay.request("GET", "/api/auth/session")).body).toEqual({});
  });

  it("ends every session of a user at once (sign out everywhere)", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const one = browser();
    const two = browser();
    expect((await one.signIn(owner.email, owner.password)).error).toBeNull();
    expect((await two.signIn(owner.email, owner.password)).error).toBeNull();
    expect((await signOutEverywhere(owner.userId)).sessions).toBe(2);
    expect((await one.api("GET", "/app")).status).toBe(401);
    expect((await two.api("GET", "/app")).status).toBe(401);
  });

  it("signs out everywhere over HTTP: every browser of the user, and their member portal, stop working at once", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const [one, two, three] = [browser(), browser(), browser()];
    for (const br of [one, two, three]) expect((await br.signIn(owner.email, owner.password)).error).toBeNull();
    // The same person is also an integrator of B's application, with a member portal open.
    await db.applicationMembership.create({ data: { id: newId("applicationMembership"), applicationId: appOfB.id, userId: owner.userId, role: "admin" } });
    const opened = await one.request("GET", `/portal/sign-in/continue?app=${appOfB.id}`);
    const portalToken = /#key=(hpt_[\w-]+)/.exec(opened.headers.get("location") ?? "")![1]!;
    const portal = () => requestJson("GET", `${baseUrl()}/api/v1/app/${appOfB.id}/endpoint`, portalToken);
    expect((await portal()).status).toBe(200);
    const stolen = two.jar.get("next-auth.session-token")!;
    const other = await createMember(a.environmentId, "owner");
    const bystander = browser();
    expect((await bystander.signIn(other.email, other.password)).error).toBeNull();

    // Refused without the CSRF header, and without a session.
    expect((await one.request("POST", "/api/account/sign-out-everywhere")).status).toBe(403);
    expect((await browser().request("POST", "/api/account/sign-out-everywhere", { headers: { "x-herald-csrf": "1" } })).status).toBe(401);
    for (const br of [one, two, three]) expect((await br.api("GET", "/app")).status).toBe(200);

    const res = await three.request("POST", "/api/account/sign-out-everywhere", { headers: { "x-herald-csrf": "1" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 3, portalLinks: 1 });
    for (const br of [one, two, three]) {
      expect((await br.api("GET", "/app")).status).toBe(401);
      expect((await br.request("GET", "/api/auth/session")).body).toEqual({});
    }
    const replay = browser();
    replay.jar.set("next-auth.session-token", stolen);
    expect((await replay.api("GET", "/app")).status).toBe(401);
    expect((await portal()).status).toBe(401);
    // Someone else's session is untouched.
    expect((await bystander.api("GET", "/app")).status).toBe(200);
    // Signing in again works as usual.
    expect((await one.signIn(owner.email, owner.password)).error).toBeNull();
    expect((await one.api("GET", "/app")).status).toBe(200);
  });

  it("stores only hashes of session ids", async () => {
    const owner = await createMember(a.environmentId, "owner");
    const br = browser();
    expect((await br.signIn(owner.email, owner.password)).error).toBeNull();
    const rows = await db.userSession.findMany({ where: { userId: owner.userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(br.jar.get("next-auth.session-token")).not.toContain(rows[0]!.hash);
  });
});

describe("password sign-in", () => {
  let env: Tenant;
  beforeAll(async () => {
    env = await createTenant("accounts-signin");
  });

  it("says the same for an unknown email and a wrong password", async () => {
    const owner = await createMember(env.environmentId, "owner");
    const wrong = await browser().signIn(owner.email, "not the password at all");
    const unknown = await browser().signIn(uniqueEmail("nobody"), "not the password at all");
    expect(wrong.error).toBe("Wrong email or password.");
    expect(unknown.error).toBe(wrong.error);
    expect(wrong.status).toBe(unknown.status);
    expect(await browser().signIn(owner.email.toUpperCase(), owner.password).then((r) => r.error)).toBeNull();
  });

  it("limits failures per email, across client addresses, even for the right password", async () => {
    const owner = await createMember(env.environmentId, "owner");
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) expect((await browser().signIn(owner.email, `wrong-${i}-password`)).error).toBe("Wrong email or password.");
    const blocked = await browser().signIn(owner.email, owner.password);
    expect(blocked.error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
  });

  it("limits failures per client address, across emails", async () => {
    const owner = await createMember(env.environmentId, "owner");
    const attacker = browser();
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) await attacker.signIn(uniqueEmail("guess"), "guessed-password");
    expect((await attacker.signIn(owner.email, owner.password)).error).toMatch(/Too many failed sign-in attempts/);
    // The account itself is not locked for everyone else.
    expect((await browser().signIn(owner.email, owner.password)).error).toBeNull();
  });
});
