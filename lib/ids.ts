import { randomFillSync } from "node:crypto";

// Prefixed, time-sortable, URL-safe ids: `msg_` + 26 characters of lowercase Crockford base32
// (48-bit millisecond time, then 80 random bits), like a ULID. Lowercase digits-and-letters sort
// the same in every collation, so `ORDER BY id` is creation order and ids double as cursors.
// Within one millisecond the random part is incremented, so ids from one process stay ordered.

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

let lastTime = -1;
let lastTimeText = "";
const lastRandom = Buffer.alloc(10);

// Random bytes are drawn from a pool refilled 4 KiB at a time: one call into OpenSSL per ~400
// ids instead of one per id (publish makes an id per delivery, and a delivery makes three).
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

/** Adds one to the 80-bit number, in place (wrapping, as a ULID's monotonic increment). */
function increment(bytes: Buffer): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 255) {
      bytes[i] = bytes[i]! + 1;
      return;
    }
    bytes[i] = 0;
  }
}

/** A ULID for now (monotonic within this process), or for an explicit instant (e.g. seeding history). */
export function ulid(at?: number): string {
  if (at !== undefined) return encodeTime(at) + encodeRandom(random10(Buffer.alloc(10)));
  const now = Date.now();
  if (now <= lastTime) increment(lastRandom);
  else {
    lastTime = now;
    lastTimeText = encodeTime(now);
    random10(lastRandom);
  }
  return lastTimeText + encodeRandom(lastRandom);
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
