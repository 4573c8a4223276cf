import { request as httpRequest } from "node:http";
import { randomInt } from "node:crypto";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { ensureUser } from "@/lib/accounts/users";
import { baseUrl } from "./tenant";

// Signing in over HTTP exactly as a browser does with next-auth (csrf cookie + token, then the
// credentials callback), from a chosen loopback source address: the server sees each test's
// 127.x.y.z as its own client address, so the sign-in rate limits of one test do not spill into another.

export type Browser = ReturnType<typeof browser>;

/** One HTTP request from a given local address (node:http; fetch cannot choose its source address). */
function send(address: string, method: string, url: URL, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: address },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of [v ?? []].flat()) h.append(k, one);
          resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// Each test file loads this module afresh, in one of several Vitest workers of the same process,
// so a counter from a fixed start (or from the pid) hands the same addresses to several files, and
// one file's rate-limit test then blocks another's sign-ins. A random start anywhere in
// 127.0.0.0/8 (all of it is loopback) makes two files' addresses meet with negligible odds.
const SPACE = 254 * 256 * 250;
let nextAddress = randomInt(0, SPACE);
/** A loopback source address no other test of this run uses. */
export function freshAddress(): string {
  const n = nextAddress++ % SPACE;
  return `127.${1 + Math.floor(n / (256 * 250))}.${Math.floor(n / 250) % 256}.${(n % 250) + 2}`;
}

export type Reply = { status: number; body: any; headers: Headers; text: string };

/** A cookie jar and a client address: one browser (of the shared test server, or of `base`). */
export function browser(address = freshAddress(), base?: string) {
  const root = () => base ?? baseUrl();
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

  async function request(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
    const res = await send(address, method, new URL(`${root()}${path}`), { ...(jar.size ? { cookie: cookieHeader() } : {}), ...init.headers }, init.body);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === "" || /max-age=0/i.test(c) || /expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = res.text;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, headers: res.headers, text };
  }

  /** JSON to /api/v1 with the session cookie (and whatever headers). */
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(method, `/api/v1${path}`, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    });

  async function form(path: string, fields: Record<string, string>) {
    const csrf = (await request("GET", "/api/auth/csrf")).body as { csrfToken: string };
    return request("POST", path, {
      body: new URLSearchParams({ ...fields, csrfToken: csrf.csrfToken, json: "true" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }

  /** The credentials sign-in; `error` is next-auth's error (our message) or null on success. */
  async function signIn(email: string, password: string) {
    const res = await form("/api/auth/callback/credentials", { email, password, callbackUrl: "/console" });
    const url = (res.body as { url?: string } | null)?.url ?? "";
    const error = url ? new URL(url, root()).searchParams.get("error") : `status ${res.status}`;
    return { ...res, error };
  }

  const signOut = () => form("/api/auth/signout", { callbackUrl: "/" });

  return { jar, address, request, api, form, signIn, signOut, cookieHeader };
}

export async function createMember(environmentId: string, role: "owner" | "admin" | "viewer", email = uniqueEmail()) {
  const password = `pw-${Math.random().toString(36).slice(2)}-long`;
  const user = await ensureUser(email, { password });
  await db.environmentMembership.create({ data: { id: newId("environmentMembership"), environmentId, userId: user.id, role } });
  return { userId: user.id, email: user.email, password };
}

let counter = 0;
export const uniqueEmail = (label = "user") => `${label}.${process.pid}.${Date.now().toString(36)}.${counter++}@test.herald.test`;
