import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createTenant, type Tenant } from "./helpers/tenant";
import { browser, createMember, uniqueEmail } from "./helpers/accounts";

// Members of an environment (operators) and of an application (integrators), through the API,
// with invitations followed the way the invited person would: the one-time link (this run has no
// SMTP), once; a second use is refused.

const ENV = "x-herald-environment";

/** Follows a sign-in link in a fresh browser; true when it ended signed in. */
async function follow(url: string) {
  const br = browser();
  const u = new URL(url);
  const res = await br.request("GET", u.pathname + u.search);
  return { br, res, signedIn: br.jar.has("next-auth.session-token"), location: res.headers.get("location") ?? "" };
}

describe("operator members", () => {
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    a = await createTenant("members-a");
    b = await createTenant("members-b");
  });

  it("invites with a one-time link (no SMTP here), which signs in once and never again", async () => {
    const email = uniqueEmail("invitee");
    const res = await a.api("POST", "/environment/member", { email: email.toUpperCase(), role: "admin" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ email, role: "admin", invite: { sent: false } });
    expect(res.body.invite.url).toMatch(/\/api\/auth\/callback\/email\?/);
    // Invited again before following the link (lost, expired): 200, the role as it was, and a new
    // invitation; only the newest link works.
    const again = await a.api("POST", "/environment/member", { email, role: "viewer" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ email, role: "admin", invite: { sent: false } });
    expect(again.body.invite.url).toMatch(/\/api\/auth\/callback\/email\?/);
    expect(again.body.invite.url).not.toBe(res.body.invite.url);
    const stale = await follow(res.body.invite.url);
    expect(stale.signedIn).toBe(false);

    const first = await follow(again.body.invite.url);
    expect(first.signedIn).toBe(true);
    // First stop: "set your password" (skippable), then the console.
    expect(first.location).toMatch(/\/account\?welcome=1&next=\/console$/);
    expect((await first.br.api("GET", "/app")).status).toBe(200);
    expect((await first.br.api("GET", "/environment/member", undefined, { [ENV]: b.environmentId })).status).toBe(404);

    const replay = await follow(again.body.invite.url);
    expect(replay.signedIn).toBe(false);
    expect(replay.location).toMatch(/error=Verification/);
    // Signed in now: inviting them again changes nothing and sends nothing.
    const signedIn = await a.api("POST", "/environment/member", { email, role: "viewer" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.invite).toBeNull();

    const list = await a.api("GET", "/environment/member");
    expect(list.body.data.map((m: { email: string }) => m.email)).toContain(email);
    expect(JSON.stringify(list.body)).not.toMatch(/passwordHash|scrypt/);
  });

  it("gives no link for someone who already has an account elsewhere", async () => {
    const other = await createMember(b.environmentId, "owner");
    const res = await a.api("POST", "/environment/member", { email: other.email, role: "viewer" });
    expect(res.status).toBe(201);
    expect(res.body.invite).toMatchObject({ sent: false, url: null });
  });

  it("keeps roles in order: viewers cannot invite, admins cannot grant owner, the last owner stays", async () => {
    const viewer = await createMember(a.environmentId, "viewer");
    const admin = await createMember(a.environmentId, "admin");
    const v = browser();
    expect((await v.signIn(viewer.email, viewer.password)).error).toBeNull();
    expect((await v.api("POST", "/environment/member", { email: uniqueEmail(), role: "viewer" }, { [ENV]: a.environmentId })).status).toBe(403);
    const ad = browser();
    expect((await ad.signIn(admin.email, admin.password)).error).toBeNull();
    const grant = await ad.api("POST", "/environment/member", { email: uniqueEmail(), role: "owner" }, { [ENV]: a.environmentId });
    expect(grant.status).toBe(403);
    expect(grant.body.detail).toMatch(/owner/);
    expect((await ad.api("POST", "/environment/member", { email: uniqueEmail(), role: "viewer" }, { [ENV]: a.environmentId })).status).toBe(201);

    const solo = await createTenant("members-solo");
    const owner = await createMember(solo.environmentId, "owner");
    const last = await solo.api("DELETE", `/environment/member/${encodeURIComponent(owner.email)}`);
    expect(last.status).toBe(409);
    expect((await solo.api("PATCH", `/environment/member/${encodeURIComponent(owner.email)}`, { role: "admin" })).status).toBe(409);
    expect((await solo.api("PATCH", `/environment/member/nobody@example.com`, { role: "admin" })).status).toBe(404);
    expect((await solo.api("POST", "/environment/member", { email: "not-an-email", role: "admin" })).status).toBe(422);
    expect((await solo.api("POST", "/environment/member", { email: uniqueEmail(), role: "root" })).status).toBe(422);
  });

  it("ends a removed member's sessions at once", async () => {
    const member = await createMember(a.environmentId, "admin");
    const br = browser();
    expect((await br.signIn(member.email, member.password)).error).toBeNull();
    expect((await br.api("GET", "/app")).status).toBe(200);
    // Another environment's key cannot touch A's members.
    expect((await b.api("DELETE", `/environment/member/${encodeURIComponent(member.email)}`)).status).toBe(404);
    expect((await a.api("DELETE", `/environment/member/${encodeURIComponent(member.email)}`)).status).toBe(204);
    expect((await br.api("GET", "/app")).status).toBe(401);
    expect(await db.userSession.count({ where: { userId: member.userId } })).toBe(0);
  });

  it("removing someone from one environment, or from its application, leaves them signed in to another", async () => {
    const member = await createMember(b.environmentId, "admin");
    await db.environmentMembership.create({ data: { id: newId("environmentMembership"), environmentId: a.environmentId, userId: member.userId, role: "viewer" } });
    const br = browser();
    expect((await br.signIn(member.email, member.password)).error).toBeNull();
    expect((await br.api("GET", "/app", undefined, { [ENV]: b.environmentId })).status).toBe(200);
    // A adds them to an application of its own and removes them again; then removes them from A.
    const appA = (await a.api("POST", "/app", { name: "Passing through" })).body.id as string;
    expect((await a.api("POST", `/app/${appA}/member`, { email: member.email, role: "viewer" })).status).toBe(201);
    expect((await a.api("DELETE", `/app/${appA}/member/${encodeURIComponent(member.email)}`)).status).toBe(204);
    expect((await a.api("DELETE", `/environment/member/${encodeURIComponent(member.email)}`)).status).toBe(204);
    expect((await br.api("GET", "/app", undefined, { [ENV]: a.environmentId })).status).toBe(404);
    expect((await br.api("GET", "/app", undefined, { [ENV]: b.environmentId })).status).toBe(200);
    // Their last access goes: signed out at once.
    expect((await b.api("DELETE", `/environment/member/${encodeURIComponent(member.email)}`)).status).toBe(204);
    expect((await br.api("GET", "/app", undefined, { [ENV]: b.environmentId })).status).toBe(401);
  });

  it("an invitation link dies with the invitee's removal, and never carries another environment's invitation", async () => {
    // A invites someone new and is handed the one-time link; A removes them; B invites them.
    const email = uniqueEmail("handed-on");
    const fromA = (await a.api("POST", "/environment/member", { email, role: "viewer" })).body.invite.url as string;
    expect((await a.api("DELETE", `/environment/member/${encodeURIComponent(email)}`)).status).toBe(204);
    const fromB = (await b.api("POST", "/environment/member", { email, role: "viewer" })).body.invite.url as string;
    // A's link would sign in as the person B just invited, into B's console.
    expect((await follow(fromA)).signedIn).toBe(false);
    expect((await follow(fromB)).signedIn).toBe(true);
  });

  it("two environments inviting the same new person at once leave no link that carries both invitations", async () => {
    // Without SMTP a link is handed over only for someone new; whoever invites second finds them
    // no longer new and deletes the earlier link, even while the first invitation is minting it.
    const emails = Array.from({ length: 12 }, () => uniqueEmail("raced"));
    const answers = await Promise.all(
      emails.flatMap((email) => [
        a.api("POST", "/environment/member", { email, role: "viewer" }),
        b.api("POST", "/environment/member", { email, role: "viewer" }),
      ]),
    );
    expect(answers.map((r) => (r.status === 201 ? 201 : `${r.status} ${JSON.stringify(r.body)}`))).toEqual(answers.map(() => 201));
    // Whoever gets no link is told why, truthfully: not "they sign in as usual" (they cannot yet).
    for (const r of answers.filter((r) => !r.body.invite.url)) expect(r.body.invite.note).toMatch(/has not signed in yet and was invited elsewhere/);
    for (const email of emails) {
      expect(await db.environmentMembership.count({ where: { user: { email } } })).toBe(2);
      expect(await db.verificationToken.count({ where: { identifier: email } })).toBe(0);
    }
    // The way out the note names: one side removes them, the other invites them again and gets a
    // link that opens only its own access.
    const [email] = emails as [string];
    expect((await b.api("DELETE", `/environment/member/${encodeURIComponent(email)}`)).status).toBe(204);
    const again = await a.api("POST", "/environment/member", { email, role: "viewer" });
    expect(again.status).toBe(200);
    const link = await follow(again.body.invite.url);
    expect(link.signedIn).toBe(true);
    expect((await link.br.api("GET", "/environment/member", undefined, { [ENV]: a.environmentId })).status).toBe(200);
    expect((await link.br.api("GET", "/environment/member", undefined, { [ENV]: b.environmentId })).status).toBe(404);
  });

  it("API keys act as owner, so only an owner creates or revokes them", async () => {
    const admin = await createMember(a.environmentId, "admin");
    const ad = browser();
    expect((await ad.signIn(admin.email, admin.password)).error).toBeNull();
    const mint = await ad.api("POST", "/environment/api-key", { name: "escalate" }, { [ENV]: a.environmentId });
    expect(mint.status).toBe(403);
    expect(mint.body.detail).toMatch(/only an owner/);
    const key = (await a.api("POST", "/environment/api-key", { name: "owner's" })).body;
    expect(key.key).toBeTruthy();
    expect((await ad.api("DELETE", `/environment/api-key/${key.id}`, undefined, { [ENV]: a.environmentId })).status).toBe(403);
    const owner = await createMember(a.environmentId, "owner");
    const ow = browser();
    expect((await ow.signIn(owner.email, owner.password)).error).toBeNull();
    expect((await ow.api("POST", "/environment/api-key", { name: "by owner" }, { [ENV]: a.environmentId })).status).toBe(201);
    // An answer is replayed only to whoever got it: the admin, sending the owner's request with
    // the owner's idempotency-key, gets no copy of the new key.
    const idem = { "idempotency-key": `owner-ci-${Date.now()}` };
    const first = await ow.api("POST", "/environment/api-key", { name: "ci" }, { [ENV]: a.environmentId, ...idem });
    expect(first.status).toBe(201);
    const again = await ow.api("POST", "/environment/api-key", { name: "ci" }, { [ENV]: a.environmentId, ...idem });
    expect(again.body.key).toBe(first.body.key);
    const copied = await ad.api("POST", "/environment/api-key", { name: "ci" }, { [ENV]: a.environmentId, ...idem });
    // (the key is taken in this environment by another caller's request: a 409, not a replay)
    expect(copied.status).toBe(409);
    expect(copied.body.code).toBe("idempotency_conflict");
    expect(copied.text).not.toContain(first.body.key);
  });
});

describe("application members (integrators)", () => {
  let a: Tenant;
  let b: Tenant;
  let app: { id: string; uid: string };
  beforeAll(async () => {
    a = await createTenant("app-members-a");
    b = await createTenant("app-members-b");
    app = (await a.api("POST", "/app", { name: "Acme", uid: `acme-${Date.now()}` })).body;
  });

  it("invites, lists, answers 200 for a repeat, 404 across tenants, and removes", async () => {
    const email = uniqueEmail("integrator");
    const res = await a.api("POST", `/app/${app.uid}/member`, { email, role: "viewer" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ email, role: "viewer", appId: app.id, invite: { sent: false } });
    expect(res.body.invite.url).toContain(encodeURIComponent(`/portal/sign-in/continue?app=${app.id}`));
    // A repeat: 200, the role as it was, and (not signed in yet) a new invitation, the only one that works.
    const again = await a.api("POST", `/app/${app.id}/member`, { email, role: "admin" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ email, role: "viewer", invite: { sent: false } });
    expect(again.body.invite.url).toContain(encodeURIComponent(`/portal/sign-in/continue?app=${app.id}`));
    expect((await a.api("POST", `/app/${app.id}/member`, { email, role: "owner" })).status).toBe(422);

    const list = await a.api("GET", `/app/${app.id}/member`);
    expect(list.body.data).toEqual([expect.objectContaining({ email, role: "viewer" })]);
    expect((await b.api("GET", `/app/${app.id}/member`)).status).toBe(404);
    expect((await b.api("POST", `/app/${app.id}/member`, { email: uniqueEmail(), role: "admin" })).status).toBe(404);
    expect((await b.api("DELETE", `/app/${app.id}/member/${encodeURIComponent(email)}`)).status).toBe(404);

    expect((await follow(res.body.invite.url)).signedIn).toBe(false);
    const first = await follow(again.body.invite.url);
    expect(first.signedIn).toBe(true);
    // An integrator has no environment: the operator API refuses its session.
    expect((await first.br.api("GET", "/app")).status).toBe(403);

    expect((await a.api("DELETE", `/app/${app.id}/member/${encodeURIComponent(email)}`)).status).toBe(204);
    expect((await a.api("DELETE", `/app/${app.id}/member/${encodeURIComponent(email)}`)).status).toBe(404);
    expect((await first.br.request("GET", "/api/auth/session")).body).toEqual({});
  });
});
