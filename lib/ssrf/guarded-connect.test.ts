import { describe, expect, it } from "vitest";
import { createAddressPolicy } from "./ip-policy";
import { SsrfBlockedError, vettedAddresses } from "./guarded-connect";

// The connect-time guard on the addresses a URL's host gives, as the HTTP client sees them
// (after WHATWG URL normalisation). The delivery integration tests run the same spellings
// against real sockets.

const policy = createAddressPolicy(["127.0.0.1/32"]);
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, "");

const BLOCKED_LOOPBACK_SPELLINGS = [
  "http://127.0.0.2/",
  "http://2130706434/", // decimal
  "http://0x7f000002/", // hex
  "http://0x7f.0.0.2/", // hex octet
  "http://0177.0.0.02/", // octal
  "http://127.2/", // short form
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::ffff:127.0.0.2]/", // IPv4-mapped
  "http://[::ffff:7f00:2]/",
  "http://[::127.0.0.2]/", // IPv4-compatible
  "http://[64:ff9b::127.0.0.2]/", // NAT64
  "http://[2002:7f00:2::1]/", // 6to4
  "http://0.0.0.0/",
  "http://[::]/",
];

describe("connect-time SSRF guard", () => {
  it.each(BLOCKED_LOOPBACK_SPELLINGS)("refuses %s", async (url) => {
    await expect(vettedAddresses(hostOf(url), policy, 1000)).rejects.toBeInstanceOf(SsrfBlockedError);
  });

  it("allows what HERALD_ALLOW_PRIVATE_NETWORKS allows, in any spelling", async () => {
    for (const url of ["http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/"])
      expect(await vettedAddresses(hostOf(url), policy, 1000)).toHaveLength(1);
  });

  it("vets every address a name resolves to and dials only allowed ones (no rebinding to a private address)", async () => {
    const resolver = (answers: string[]) => () => Promise.resolve(answers);
    await expect(
      vettedAddresses("evil.example", policy, 1000, resolver(["10.0.0.1", "169.254.169.254"])),
    ).rejects.toThrow(/not a public address/);
    expect(await vettedAddresses("mixed.example", policy, 1000, resolver(["192.168.1.1", "93.184.216.34"]))).toEqual([
      "93.184.216.34",
    ]);
  });

  it("reports DNS failures and slow DNS as DNS errors", async () => {
    await expect(
      vettedAddresses("x.invalid", policy, 1000, () =>
        Promise.reject(Object.assign(new Error("nope"), { code: "ENOTFOUND" })),
      ),
    ).rejects.toThrow(/ENOTFOUND/);
    await expect(vettedAddresses("slow.example", policy, 50, () => new Promise(() => undefined))).rejects.toThrow(
      /longer than 50 ms/,
    );
  });
});
