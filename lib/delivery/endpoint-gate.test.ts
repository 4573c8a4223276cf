import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteKeys } from "../../scripts/lib/isolated-run.mjs";
import { env } from "../env";
import { testRedis } from "../../test/helpers/redis";
import type { RedisClient } from "../queue/connection";
import { createEndpointGate, gateKey, type Admission, type Lease } from "./endpoint-gate";

// The per-endpoint gate's scripts against a real Redis, under a key prefix of this file's own.

const LEASE_MS = 30_000;

describe("endpoint gate", () => {
  const { HERALD_REDIS_PREFIX, REDIS_URL, HERALD_REDIS_MODE, HERALD_REDIS_SENTINEL_NAME, HERALD_REDIS_SENTINEL_PASSWORD } = env();
  const prefix = `${HERALD_REDIS_PREFIX}-gate-${randomBytes(3).toString("hex")}`;
  let redis: RedisClient;
  let n = 0;
  const endpoint = () => `ep_gate_${n++}`;
  const inflight = (ep: string) => redis.zrange(gateKey(prefix, ep, "inflight"), 0, -1);

  beforeAll(() => {
    redis = testRedis();
  });
  afterAll(async () => {
    redis.disconnect();
    await deleteKeys({ REDIS_URL, HERALD_REDIS_MODE, HERALD_REDIS_SENTINEL_NAME, HERALD_REDIS_SENTINEL_PASSWORD }, prefix);
  });

  const admit = (
    gate: ReturnType<typeof createEndpointGate>,
    ep: string,
    member: string,
    parkIfFull = false,
    leaseMs = LEASE_MS,
  ) => gate.admit({ endpointId: ep, member, leaseMs, ratePerSecond: null, slotAt: null, parkIfFull });
  const leaseOf = (a: Admission): Lease => {
    if (a.kind !== "go") throw new Error(`expected a slot, got ${a.kind}`);
    return a.lease;
  };

  it("admits up to the cap, parks beyond it, and a popped member's reservation becomes its lease", async () => {
    const gate = createEndpointGate(redis, prefix, 2);
    const ep = endpoint();
    const a = leaseOf(await admit(gate, ep, "dlv_a:scheduled"));
    leaseOf(await admit(gate, ep, "dlv_b:scheduled"));
    expect((await admit(gate, ep, "dlv_c:scheduled")).kind).toBe("full");
    expect((await admit(gate, ep, "dlv_c:scheduled", true)).kind).toBe("park");

    // The first request ends: the parked member is popped into its slot, reserved for it.
    expect(await gate.release(ep, a, null, true)).toEqual({ parked: 1, popped: ["dlv_c:scheduled"] });
    expect((await admit(gate, ep, "dlv_d:scheduled")).kind).toBe("full");
    const c = leaseOf(await admit(gate, ep, "dlv_c:scheduled"));
    const held = await inflight(ep);
    expect(held).toHaveLength(2);
    expect(held).toContain(c.id);
    expect(held).not.toContain("dlv_c:scheduled"); // the reservation is gone, not held twice
  });

  it("gives every lease an id of its own, so a delivery attempted again never frees another's slot", async () => {
    const gates = [createEndpointGate(redis, prefix, 3), createEndpointGate(redis, prefix, 3)];
    const ep = endpoint();
    const first = leaseOf(await admit(gates[0]!, ep, "dlv_x:scheduled"));
    const again = leaseOf(await admit(gates[1]!, ep, "dlv_x:scheduled"));
    expect(first.id).not.toBe(again.id);
    await gates[1]!.release(ep, again, null, false);
    expect(await inflight(ep)).toEqual([first.id]);
  });

  it("renews a lease passed to the next request and drops the ended probe's token", async () => {
    const gate = createEndpointGate(redis, prefix, 1);
    const ep = endpoint();
    const lease = leaseOf(await admit(gate, ep, "dlv_p:scheduled", false, 1_000));
    expect(await gate.tryProbe(ep, "dlv_p:scheduled", LEASE_MS)).toBe(true);
    const renewed = await gate.renew(ep, lease, "dlv_p:scheduled", LEASE_MS);
    expect(renewed.id).toBe(lease.id);
    expect(renewed.until).toBeGreaterThan(lease.until);
    expect(Number(await redis.zscore(gateKey(prefix, ep, "inflight"), lease.id))).toBe(renewed.until);
    expect(await gate.probeHeld(ep)).toBe(false);
  });

  it("lets a lease that was never renewed lapse (its worker died)", async () => {
    const gate = createEndpointGate(redis, prefix, 1);
    const ep = endpoint();
    leaseOf(await admit(gate, ep, "dlv_dead:scheduled", false, 50));
    expect((await admit(gate, ep, "dlv_next:scheduled")).kind).toBe("full");
    await new Promise((r) => setTimeout(r, 100));
    expect((await admit(gate, ep, "dlv_next:scheduled")).kind).toBe("go");
  });

  it("parks behind an endpoint's parked members only once the oldest has waited long enough", async () => {
    const gate = createEndpointGate(redis, prefix, 1);
    const ep = endpoint();
    const parked = () => redis.zrange(gateKey(prefix, ep, "parked"), 0, -1);
    // Nothing parked: the endpoint is not blocked, nothing is done.
    expect(await gate.parkBehind(ep, ["dlv_new1:scheduled"], 0)).toBe(false);
    expect(await parked()).toEqual([]);
    leaseOf(await admit(gate, ep, "dlv_a:scheduled"));
    expect((await admit(gate, ep, "dlv_b:scheduled", true)).kind).toBe("park");
    // Parked just now (a busy endpoint whose parked members are popped within moments): left alone.
    expect(await gate.parkBehind(ep, ["dlv_new1:scheduled"], 60_000)).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    // Waited long enough: parked behind, in order, several at once.
    expect(await gate.parkBehind(ep, ["dlv_new1:scheduled", "dlv_new2:scheduled"], 20)).toBe(true);
    expect(await parked()).toEqual(["dlv_b:scheduled", "dlv_new1:scheduled", "dlv_new2:scheduled"]);
  });

  it("tells parked members of many endpoints apart in one call per endpoint", async () => {
    const gate = createEndpointGate(redis, prefix, 1);
    const [e1, e2] = [endpoint(), endpoint()];
    await gate.park(e1, "dlv_1:scheduled");
    await gate.park(e2, "dlv_2:manual");
    const found = await gate.parkedMembers([
      { endpointId: e1, member: "dlv_1:scheduled" },
      { endpointId: e2, member: "dlv_2:scheduled" },
      { endpointId: e1, member: "dlv_2:manual" },
      { endpointId: e2, member: "dlv_2:manual" },
      { endpointId: endpoint(), member: "dlv_3:scheduled" },
    ]);
    expect(found).toEqual([true, false, false, true, false]);
  });
});
