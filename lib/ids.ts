import { randomFillSync } from "node:crypto";
import { processWide } from "./process-wide";

// Prefixed, time-sortable, URL-safe ids: `msg_` + 26 characters of lowercase Crockford base32
// (48-bit millisecond time, then 80 random bits), like a ULID. Lowercase digits-and-letters sort
// the same in every collation, so `ORDER BY id` is creation order and ids double as cursors.
// Within one millisecond the random part is incremented, so ids from one process stay ordered
// (the clock below is the process's, on globalThis: the web process loads lib/ twice, tsx for
// server.ts's publish route and Next's bundle for the rest).

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const ID_PREFIXES = {
  environment: "env",
  apiKey: "key",
  application: "app",
  endpoint: "ep",
  eventType: "evtype",
  message: "msg",
  delivery: "dlv",
  attempt: "atmpt",
  task: "qtask",
  portalToken: "ptok",
  portalSession: "psess",
  captureRequest: "creq",
  user: "user",
  environmentMembership: "emem",
  applicationMembership: "amem",
  userSession: "usess",
  userAccount: "uacct",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

type Clock = { lastTime: number; lastTimeText: string; lastRandom: Buffer };
const clock = processWide<Clock>("heraldIdClock", () => ({
  lastTime: -1,
  lastTimeText: "",
  lastRandom: Buffer.alloc(10),
}));

// Random bytes are drawn from a pool refilled 4 KiB at a time: one call into OpenSSL per ~400
// ids instead of one per id (a publish makes 17 ids, the message's and 16 delivery ids, and a
// delivery two).
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
function random10(into: Buffer): Buffer {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  pool.copy(into, 0, poolAt, poolAt + 10);
  poolAt += 10;
  return into;
}

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/** 40 bits (5 bytes from `at`) -> 8 base32 characters; 40 bits fit a double exactly. */
function encode40(bytes: Buffer, at: number): string {
  let value = bytes[at]! * 2 ** 32 + bytes.readUInt32BE(at + 1);
  let out = "";
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/** 80 bits -> 16 base32 characters. */
const encodeRandom = (bytes: Buffer): string => encode40(bytes, 0) + encode40(bytes, 5);

/** Adds one to the 80-bit number, in place; false when it wrapped around to zero. */
function increment(bytes: Buffer): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 255) {
      bytes[i] = bytes[i]! + 1;
      return true;
    }
    bytes[i] = 0;
  }
  return false;
}

function startMillisecond(ms: number): void {
  clock.lastTime = ms;
  clock.lastTimeText = encodeTime(ms);
  random10(clock.lastRandom);
}

/** A ULID for now (monotonic within this process), or for an explicit instant (e.g. seeding history). */
export function ulid(at?: number): string {
  if (at !== undefined) return encodeTime(at) + encodeRandom(random10(Buffer.alloc(10)));
  const now = Date.now();
  if (now > clock.lastTime) startMillisecond(now);
  // The random part ran out within one millisecond (odds about 2^-80): the next one, so ids stay ordered.
  else if (!increment(clock.lastRandom)) startMillisecond(clock.lastTime + 1);
  return clock.lastTimeText + encodeRandom(clock.lastRandom);
}

export function newId(kind: IdKind, at?: number): string {
  return `${ID_PREFIXES[kind]}_${ulid(at)}`;
}

/** The smallest id of a kind created at or after `date`: a cursor bound for time filters. */
export function idAtTime(kind: IdKind, date: Date): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(date.getTime())}${"0".repeat(16)}`;
}

/** Milliseconds since epoch encoded in an id, or null when it is not one of ours. */
export function idTime(id: string): number | null {
  const body = id.slice(id.indexOf("_") + 1);
  if (!/^[0-9a-hjkmnp-tv-z]{26}$/.test(body)) return null;
  let ms = 0;
  for (const ch of body.slice(0, 10)) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(ID_PREFIXES[kind] + "_") && idTime(id) !== null;
}
