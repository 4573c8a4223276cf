import { createHash, randomBytes } from "node:crypto";
import type { RedisClient } from "../queue/connection";

// Per-endpoint admission in Redis, shared by every worker process. Each check is one Lua script,
// so the decision and its bookkeeping are atomic. Members are "<deliveryId>:<trigger>".
//
// - In-flight cap: a sorted set of leases (score = expiry), so a crashed worker's leases lapse on
//   their own. A lease has an id of its own, not the delivery's: a process may pass a lease from
//   one request of the endpoint to the next without telling Redis (lib/delivery/local-slots.ts),
//   renewing it only every few seconds. A job that finds its endpoint at the cap either waits
//   briefly in its process for such a hand-over or is *parked*: the member goes into the
//   endpoint's parked set and the job itself completes, so a slow endpoint's backlog waits in
//   Redis, costing nothing, and never holds the worker's slots. When a slot frees up, parked
//   members are popped into it (each with a short reservation under its member name) and resumed
//   through the small "deliver.resume" queue; their admission turns the reservation into a lease.
// - Throttle: a GCRA "theoretical arrival time" per endpoint. A job reserves the next free slot;
//   when that is in the future the job is delayed exactly until then (one move per job, however
//   long the backlog), and admitted without a second reservation when it comes back. The time of
//   the last send is kept too, so sends stay an interval apart even when several delayed jobs
//   come back late at once.
// - Circuit probe: a token so that only one probe is in flight for a half-open endpoint.
//
// Every key of an endpoint carries its id as a Redis Cluster hash tag (`<prefix>:gate:{ep}:<part>`),
// so each script's keys share one slot. The index of endpoints with parked members is global, so
// no script touches it: it is added to after a park, taken from only by the tick after a check
// that finds the parked set empty (then checked again, so a concurrent park is never dropped from
// it), and the sweeper puts back any endpoint whose parked members it sees (a worker that died
// between parking and indexing).

/** Reservation given to a popped parked member until its resumed job claims the slot. */
const RESERVATION_MS = 10_000;
/** A job back from a throttle delay later than this reserves a new slot. */
const SLOT_STALE_MS = 60_000;
/** Slack when comparing a slot with the clock. */
const SLOT_SLACK_MS = 5;

// Returns {0} go, {1} parked, {2, slot} throttled until slot, {3} full (only when not asked to park).
const ADMIT = `
local now = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
local member = ARGV[4]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
-- A popped parked job comes back holding a reservation: it becomes its lease (ARGV[9]) below.
redis.call('ZREM', KEYS[1], member)
if redis.call('ZCARD', KEYS[1]) >= cap then
  if ARGV[8] ~= '1' then return {3, 0} end
  redis.call('ZADD', KEYS[2], 'NX', now, member)
  return {1, 0}
end
local interval = tonumber(ARGV[5])
if interval > 0 then
  local slot = tonumber(ARGV[6])
  local prepaid = slot > 0 and now >= slot - ${SLOT_SLACK_MS} and now - slot < ${SLOT_STALE_MS}
  if not prepaid then
    local tat = tonumber(redis.call('GET', KEYS[3]) or '0')
    if tat < now then tat = now end
    redis.call('SET', KEYS[3], tostring(tat + interval), 'PX', math.ceil(tat + interval - now) + 1000)
    if tat > now + ${SLOT_SLACK_MS} then return {2, tat} end
  end
  -- Sends themselves stay an interval apart, even when delayed jobs come back late together.
  local last = tonumber(redis.call('GET', KEYS[4]) or '0')
  if now < last + interval - ${SLOT_SLACK_MS} then return {2, last + interval} end
  redis.call('SET', KEYS[4], tostring(now), 'PX', math.ceil(interval) + 1000)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[9])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3]) - now) + 1000)
return {0, 0}
`;

// Frees a lease (ARGV[1]) and the probe token of ARGV[2]. Returns {parked count, popped members...}:
// when asked to wake (the circuit is closed), parked members are popped into the free slots.
const RELEASE = `
local now = tonumber(ARGV[3])
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] ~= '' and redis.call('GET', KEYS[3]) == ARGV[2] then redis.call('DEL', KEYS[3]) end
local out = {redis.call('ZCARD', KEYS[2])}
if ARGV[4] == '1' and out[1] > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local free = tonumber(ARGV[5]) - redis.call('ZCARD', KEYS[1])
  if free > 0 then
    local popped = redis.call('ZPOPMIN', KEYS[2], free)
    for i = 1, #popped, 2 do
      redis.call('ZADD', KEYS[1], now + ${RESERVATION_MS}, popped[i])
      out[#out + 1] = popped[i]
    end
    if #popped > 0 and redis.call('PTTL', KEYS[1]) < ${RESERVATION_MS} + 1000 then
      redis.call('PEXPIRE', KEYS[1], ${RESERVATION_MS} + 1000)
    end
  end
end
return out
`;

// Extends a lease (ARGV[1]) to ARGV[2] as it passes to the next request, dropping the probe token
// of ARGV[3] (the request that ended).
const RENEW = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) - tonumber(ARGV[4])) + 1000)
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1
`;

// Pops parked members into free slots; returns {parked members left, popped members...}.
const UNPARK = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local free = tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1])
local max = tonumber(ARGV[4])
if max >= 0 and max < free then free = max end
local out = {0}
if free > 0 then
  local popped = redis.call('ZPOPMIN', KEYS[2], free)
  for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[1], ARGV[3], popped[i])
    out[#out + 1] = popped[i]
  end
  -- Extend the set's expiry to cover the reservations, never shorten it: its live leases may run longer.
  if #out > 1 and redis.call('PTTL', KEYS[1]) < ${RESERVATION_MS} + 1000 then
    redis.call('PEXPIRE', KEYS[1], ${RESERVATION_MS} + 1000)
  end
end
out[1] = redis.call('ZCARD', KEYS[2])
return out
`;

// Parks members behind the endpoint's parked ones when the oldest of those has waited at least
// ARGV[2] ms (ARGV[1] = now, the score; then the members); returns 1 if it parked them. Such an
// endpoint is blocked (its circuit is open, or it stays at its cap): a new delivery's job would
// only be fetched to be parked. A busy but healthy endpoint, whose parked members are popped
// within moments, is left alone: its jobs keep being handed slots inside the worker.
const PARK_BEHIND = `
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #oldest == 0 or tonumber(ARGV[1]) - tonumber(oldest[2]) < tonumber(ARGV[2]) then return 0 end
for i = 3, #ARGV do redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[i]) end
return 1
`;

/** A Lua script run by its SHA (EVALSHA), loaded on first use or after a Redis restart. */
function script(lua: string) {
  const sha = createHash("sha1").update(lua).digest("hex");
  return async (redis: RedisClient, keys: string[], args: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (e) {
      if (!String((e as Error).message).includes("NOSCRIPT")) throw e;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
}

const admitScript = script(ADMIT);
const releaseScript = script(RELEASE);
const unparkScript = script(UNPARK);
const renewScript = script(RENEW);
const parkBehindScript = script(PARK_BEHIND);

/** An endpoint's gate key: its id is the hash tag, so one script's keys share a cluster slot. */
export const gateKey = (prefix: string, endpointId: string, part: string) => `${prefix}:gate:{${endpointId}}:${part}`;

export const memberOf = (deliveryId: string, trigger: "scheduled" | "manual") => `${deliveryId}:${trigger}`;
export function parseMember(member: string): { deliveryId: string; trigger: "scheduled" | "manual" } {
  const i = member.lastIndexOf(":");
  return { deliveryId: member.slice(0, i), trigger: member.slice(i + 1) === "manual" ? "manual" : "scheduled" };
}

/** An in-flight slot: the lease's id in the endpoint's set, and when it lapses unless renewed. */
export type Lease = { id: string; until: number };

export type Admission =
  { kind: "go"; lease: Lease } | { kind: "full" } | { kind: "park" } | { kind: "throttle"; at: number };

export type EndpointGate = ReturnType<typeof createEndpointGate>;

export function createEndpointGate(redis: RedisClient, prefix: string, cap: number) {
  const k = (endpointId: string, part: string) => gateKey(prefix, endpointId, part);
  const parkedIndex = `${prefix}:gate:parked-endpoints`;
  // Lease ids: unique across processes, and never equal to a member (reservations use those).
  const leaseTag = `lease:${randomBytes(6).toString("hex")}:`;
  let leases = 0;

  return {
    /**
     * Take an in-flight slot (a new lease) for `member`. Otherwise: "full" (or, with `parkIfFull`,
     * "park": the member is now in the parked set), or "throttle" with the reserved slot time.
     */
    async admit(input: {
      endpointId: string;
      member: string;
      leaseMs: number;
      ratePerSecond: number | null;
      slotAt: number | null;
      parkIfFull: boolean;
    }): Promise<Admission> {
      const now = Date.now();
      const interval = input.ratePerSecond ? 1000 / input.ratePerSecond : 0;
      const lease = { id: leaseTag + (leases++).toString(36), until: now + input.leaseMs };
      const [code, at] = (await admitScript(
        redis,
        [
          k(input.endpointId, "inflight"),
          k(input.endpointId, "parked"),
          k(input.endpointId, "tat"),
          k(input.endpointId, "last"),
        ],
        [
          now,
          cap,
          lease.until,
          input.member,
          interval,
          input.slotAt ?? 0,
          input.endpointId,
          input.parkIfFull ? "1" : "0",
          lease.id,
        ],
      )) as [number, number];
      if (code === 1) {
        await redis.sadd(parkedIndex, input.endpointId);
        return { kind: "park" };
      }
      if (code === 2) return { kind: "throttle", at: Number(at) };
      if (code === 3) return { kind: "full" };
      return { kind: "go", lease };
    },

    /**
     * Give the slot back (`lease` null: none was held) and the probe token of `probeMember`.
     * Returns how many members are parked for the endpoint and, when `wake` is set, the members
     * popped into the free slots (reserved for them: resume them).
     */
    async release(
      endpointId: string,
      lease: Lease | null,
      probeMember: string | null,
      wake: boolean,
    ): Promise<{ parked: number; popped: string[] }> {
      const [parked, ...popped] = (await releaseScript(
        redis,
        [k(endpointId, "inflight"), k(endpointId, "parked"), k(endpointId, "probe")],
        [lease?.id ?? "", probeMember ?? "", Date.now(), wake ? "1" : "0", cap],
      )) as [number, ...string[]];
      return { parked, popped };
    },

    /** Extends a lease for another `leaseMs` (and gives up the probe token of `probeMember`). */
    async renew(endpointId: string, lease: Lease, probeMember: string | null, leaseMs: number): Promise<Lease> {
      const now = Date.now();
      const until = now + leaseMs;
      await renewScript(
        redis,
        [k(endpointId, "inflight"), k(endpointId, "probe")],
        [lease.id, until, probeMember ?? "", now],
      );
      return { id: lease.id, until };
    },

    /**
     * Pop up to the free slots (or `max`) of parked members, each with a reserved slot. Returns
     * them and how many are left parked.
     */
    async unpark(endpointId: string, max = -1): Promise<{ popped: string[]; left: number }> {
      const now = Date.now();
      const [left, ...popped] = (await unparkScript(
        redis,
        [k(endpointId, "inflight"), k(endpointId, "parked")],
        [now, cap, now + RESERVATION_MS, max],
      )) as [number, ...string[]];
      return { popped, left: Number(left) };
    },

    /** Park a member without an admission check (its endpoint's circuit is open). */
    async park(endpointId: string, member: string): Promise<void> {
      await redis.zadd(k(endpointId, "parked"), "NX", Date.now(), member);
      await redis.sadd(parkedIndex, endpointId);
    },

    /**
     * Parks `members` behind the endpoint's parked ones if the oldest has waited `minWaitMs` (see
     * PARK_BEHIND); false when not, and nothing was done.
     */
    async parkBehind(endpointId: string, members: string[], minWaitMs: number): Promise<boolean> {
      return (await parkBehindScript(redis, [k(endpointId, "parked")], [Date.now(), minWaitMs, ...members])) === 1;
    },

    /**
     * Takes an endpoint whose parked set was seen empty out of the index. Checked again after: a
     * member parked meanwhile put it back already or does so now.
     */
    async forgetIfEmpty(endpointId: string): Promise<void> {
      await redis.srem(parkedIndex, endpointId);
      if ((await redis.zcard(k(endpointId, "parked"))) > 0) await redis.sadd(parkedIndex, endpointId);
    },

    /** Puts endpoints known to have parked members (back) into the index. */
    async indexParked(endpointIds: string[]): Promise<void> {
      if (endpointIds.length > 0) await redis.sadd(parkedIndex, ...new Set(endpointIds));
    },

    /**
     * Is this member parked (the sweeper's check before re-enqueuing a delivery)? One ZMSCORE per
     * endpoint: a stuck endpoint's backlog of thousands is a few commands, not thousands. Not one
     * pipeline: on a cluster the endpoints' keys live on different nodes (ioredis batches
     * concurrent commands per node by itself).
     */
    async parkedMembers(items: { endpointId: string; member: string }[]): Promise<boolean[]> {
      const byEndpoint = new Map<string, number[]>();
      items.forEach((item, i) => {
        const at = byEndpoint.get(item.endpointId);
        if (at) at.push(i);
        else byEndpoint.set(item.endpointId, [i]);
      });
      const parked = items.map(() => false);
      await Promise.all(
        [...byEndpoint].map(async ([endpointId, at]) => {
          const scores = await redis.zmscore(k(endpointId, "parked"), ...at.map((i) => items[i]!.member));
          at.forEach((i, j) => (parked[i] = scores[j] !== null));
        }),
      );
      return parked;
    },

    /** Become the single probe of a half-open endpoint (`member` holds the token). */
    async tryProbe(endpointId: string, member: string, ttlMs: number): Promise<boolean> {
      return (await redis.set(k(endpointId, "probe"), member, "PX", ttlMs, "NX")) === "OK";
    },

    async probeHeld(endpointId: string): Promise<boolean> {
      return (await redis.exists(k(endpointId, "probe"))) === 1;
    },

    async parkedEndpoints(): Promise<string[]> {
      return redis.smembers(parkedIndex);
    },

    async parkedCount(endpointIds: string[]): Promise<number> {
      const counts = await Promise.all(endpointIds.map((id) => redis.zcard(k(id, "parked"))));
      return counts.reduce((sum, n) => sum + n, 0);
    },
  };
}
