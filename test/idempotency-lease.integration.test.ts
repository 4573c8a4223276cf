import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto/tokens";
import { claimIdempotencyKey, idempotentRequest, IDEMPOTENCY_LEASE_MS, requestFingerprint } from "@/lib/http/idempotency";
import { createTenant, type Tenant } from "./helpers/tenant";

// An idempotency key whose first request was cut off mid-way (the process crashed, or lost the
// database, after claiming the key and before it could complete or release it) is held only for
// its lease: within it a retry is told the request is in progress (409); after it, a retry with the
// same key runs, and is then replayed like any other. A record left behind is made here the way a
// crash leaves it: the claim's row with no response.

describe("idempotency keys of interrupted requests", () => {
  let t: Tenant;
  let appId: string;

  beforeAll(async () => {
    t = await createTenant("idempotency-lease");
    appId = (await t.api("POST", "/app", { name: "Lease" })).body.id;
  });

  const body = JSON.stringify({ url: "https://example.com/hook" });
  const createEndpoint = (key: string) => t.api("POST", `/app/${appId}/endpoint`, body, { "idempotency-key": key });

  /** The tenant's API key as the route sees it. */
  const asTenant = () =>
    ({ kind: "operator", environmentId: t.environmentId, via: "api_key", apiKeyId: t.apiKeyId, userId: null, role: "owner" }) as const;

  /** The row a request (this very one) leaves when its process dies between claiming the key and answering. */
  const leftBehind = (key: string, ageMs: number) =>
    db.$executeRaw`INSERT INTO idempotency_record (environment_id, key, request_hash, created_at)
      VALUES (${t.environmentId}, ${key}, ${sha256Hex(requestFingerprint(asTenant(), "POST", `/api/v1/app/${appId}/endpoint?`, body))},
              now() - make_interval(secs => ${ageMs / 1000}))`;

  it("answers 409 in progress while the interrupted request's lease runs, naming when it frees", async () => {
    await leftBehind("crashed-just-now", 1_000);
    const res = await createEndpoint("crashed-just-now");
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("idempotency_in_progress");
    expect(res.body.detail).toContain(`after ${IDEMPOTENCY_LEASE_MS / 1000} s`);
    expect(await db.endpoint.count({ where: { applicationId: appId } })).toBe(0);
  });

  it("runs a retry once the lease has run out, then replays that answer", async () => {
    await leftBehind("crashed-long-ago", IDEMPOTENCY_LEASE_MS + 5_000);
    const first = await createEndpoint("crashed-long-ago");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await createEndpoint("crashed-long-ago");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(await db.endpoint.count({ where: { applicationId: appId } })).toBe(1);
  });

  it("keeps a completed answer for its full 24 h, however old the lease", async () => {
    const first = await createEndpoint("completed-key");
    expect(first.status).toBe(201);
    // Older than the lease, younger than the TTL: still replayed, never run again.
    await db.$executeRaw`UPDATE idempotency_record SET created_at = now() - make_interval(secs => ${(IDEMPOTENCY_LEASE_MS * 10) / 1000})
      WHERE environment_id = ${t.environmentId} AND key = 'completed-key'`;
    const again = await createEndpoint("completed-key");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
  });

  it("a request whose key was taken over neither completes nor releases the new owner's claim", async () => {
    // The first request was slow rather than dead: its claim lapsed and a retry took the key over.
    const fingerprint = "POST /api/v1/app/x/msg?\n{}";
    const first = await claimIdempotencyKey(idempotentRequest(t.environmentId, "slow-first", fingerprint));
    expect(first.kind).toBe("new");
    await db.$executeRaw`UPDATE idempotency_record SET created_at = created_at - make_interval(secs => ${(IDEMPOTENCY_LEASE_MS + 5_000) / 1000})
      WHERE environment_id = ${t.environmentId} AND key = 'slow-first'`;
    const retry = await claimIdempotencyKey(idempotentRequest(t.environmentId, "slow-first", fingerprint));
    expect(retry.kind).toBe("new");
    if (first.kind !== "new" || retry.kind !== "new") return;
    // The first one's late end changes nothing, whichever way it ends.
    await first.release();
    await retry.complete({ status: 202, body: { id: "from-the-retry" } });
    await first.complete({ status: 202, body: { id: "from-the-first" } });
    const replay = await claimIdempotencyKey(idempotentRequest(t.environmentId, "slow-first", fingerprint));
    expect(replay).toEqual({ kind: "replay", response: { status: 202, body: { id: "from-the-retry" } } });
  });
});
