import { randomBytes } from "node:crypto";

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
let lastRandom: Buffer = Buffer.alloc(10);

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  // 80 bits -> 16 base32 characters.
  let value = BigInt("0x" + bytes.toString("hex"));
  let out = "";
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

function increment(bytes: Buffer): Buffer {
  const next = Buffer.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 255) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/** A ULID for now (monotonic within this process), or for an explicit instant (e.g. seeding history). */
export function ulid(at?: number): string {
  if (at !== undefined) return encodeTime(at) + encodeRandom(randomBytes(10));
  let now = Date.now();
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = randomBytes(10);
  }
  return encodeTime(now) + encodeRandom(lastRandom);
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
