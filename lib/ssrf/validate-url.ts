import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { checkAddress, type AddressPolicy } from "./ip-policy";

// The create/update-time check of an endpoint URL: a fast, clear error for URLs that can never
// be delivered to. The authoritative check happens again at connect time (lib/delivery), on the
// address actually dialled, because DNS can change between now and then.

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const DNS_CHECK_TIMEOUT_MS = 2_000;

export function hostAddress(url: URL): string | null {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}

export function checkUrlSyntax(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not a valid absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: `must use http or https, not ${url.protocol.replace(":", "")}` };
  if (url.username || url.password)
    return { ok: false, reason: "must not contain credentials; send them as a custom header instead" };
  if (!url.hostname) return { ok: false, reason: "must have a host" };
  return { ok: true, url };
}

export async function validateEndpointUrl(raw: string, policy: AddressPolicy): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw);
  if (!syntax.ok) return syntax;
  const { url } = syntax;
  const literal = hostAddress(url);
  const host = url.hostname.toLowerCase();
  let addresses: string[];
  if (literal) addresses = [literal];
  else if (host === "localhost" || host.endsWith(".localhost")) addresses = ["127.0.0.1", "::1"];
  else {
    try {
      const found = await Promise.race([
        lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), DNS_CHECK_TIMEOUT_MS).unref()),
      ]);
      addresses = found.map((a) => a.address);
    } catch {
      // Not resolvable yet (or DNS is slow): accept; delivery re-checks at connect time.
      return { ok: true, url };
    }
  }
  const verdicts = addresses.map((a) => checkAddress(a, policy));
  // localhost resolves to both families; allowing either is enough for a local setup.
  const usable = literal ? verdicts.every((v) => v.ok) : verdicts.some((v) => v.ok);
  if (!usable) {
    // Plain words: portal users (often no-code) read this next to the URL field. The server
    // setting that allows private networks (HERALD_ALLOW_PRIVATE_NETWORKS) is for operators and
    // documented in docs/api.md, not named here.
    const blocked = addresses[verdicts.findIndex((v) => !v.ok)] ?? host;
    return {
      ok: false,
      reason: `points to ${blocked}, a non-public address. Herald delivers only to servers reachable on the public internet`,
    };
  }
  return { ok: true, url };
}
