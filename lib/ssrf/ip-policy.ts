import { BlockList, isIP } from "node:net";

// Which addresses a webhook may be sent to. Everything that is not globally routable unicast is
// refused (loopback, private, link-local, CGNAT, multicast, reserved, documentation, ...),
// including IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4).
// HERALD_ALLOW_PRIVATE_NETWORKS punches explicit holes (e.g. 127.0.0.1/32 for local tests).

const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255
];

const BLOCKED_V6: [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, ...)
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, "ipv6");

export type AddressPolicy = { allow: BlockList; allowList: string[] };

export class CidrError extends Error {}

/** `10.0.0.0/8`, `::1/128` or a bare address (a single host); null when it is none of these. */
export function parseCidr(cidr: string): { net: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [net, bits] = cidr.split("/");
  const family = isIP(net ?? "");
  const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
  if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) return null;
  return { net: net!, prefix, family: family === 6 ? "ipv6" : "ipv4" };
}

export function createAddressPolicy(cidrs: string[]): AddressPolicy {
  const allow = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (!parsed) throw new CidrError(`HERALD_ALLOW_PRIVATE_NETWORKS: "${cidr}" is not a CIDR like 127.0.0.1/32`);
    allow.addSubnet(parsed.net, parsed.prefix, parsed.family);
  }
  return { allow, allowList: cidrs };
}

/** Expands an IPv6 address to eight 16-bit groups (handles "::" and a dotted IPv4 tail). */
function ipv6Groups(ip: string): number[] {
  let addr = ip.toLowerCase();
  const zone = addr.indexOf("%");
  if (zone >= 0) addr = addr.slice(0, zone);
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (v4) {
    const o = v4[1]!.split(".").map(Number);
    addr = addr.slice(0, -v4[1]!.length) + `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail] = addr.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined ? (tail ? tail.split(":") : []) : [];
  const fill: string[] = tail !== undefined ? new Array<string>(8 - h.length - t.length).fill("0") : [];
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
export function embeddedIpv4(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (g.length !== 8) return null;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4FromGroups(g[6]!, g[7]!); // ::ffff:a.b.c.d mapped
  if (zeros(6) && (g[6]! !== 0 || g[7]! > 1)) return v4FromGroups(g[6]!, g[7]!); // ::a.b.c.d compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4FromGroups(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return v4FromGroups(g[1]!, g[2]!); // 6to4
  return null;
}

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

export function checkAddress(ip: string, policy: AddressPolicy): AddressVerdict {
  const family = isIP(ip);
  if (family === 0) return { ok: false, reason: `"${ip}" is not an IP address` };
  const type = family === 6 ? "ipv6" : "ipv4";
  if (policy.allow.check(ip, type)) return { ok: true };
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) {
      if (policy.allow.check(v4, "ipv4")) return { ok: true };
      if (blocked.check(v4, "ipv4")) return { ok: false, reason: `${ip} embeds the non-public IPv4 address ${v4}` };
    }
  }
  if (blocked.check(ip, type)) return { ok: false, reason: `${ip} is not a public address (private, loopback, link-local or reserved)` };
  return { ok: true };
}
