import { lookup } from "node:dns/promises";
import { isIP, type Socket } from "node:net";
import { buildConnector, errors } from "undici";
import { checkAddress, type AddressPolicy } from "./ip-policy";

// The connect-time SSRF guard for outgoing webhooks. undici calls this to open every new socket:
// we resolve the host ourselves, vet every address against the policy, and dial the vetted
// address only, so a DNS answer that changes between check and connect (rebinding) cannot send
// us elsewhere. The original host name stays the TLS server name (SNI and certificate check)
// and the Host header, which undici builds from the URL.

export class SsrfBlockedError extends Error {
  readonly code = "ERR_SSRF_BLOCKED";
}

export class DnsError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses of `host` that the policy allows, in resolver order; throws when there are none. */
export async function vettedAddresses(
  host: string,
  policy: AddressPolicy,
  timeoutMs: number,
  resolve = systemResolver,
) {
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new DnsError(`DNS lookup of ${host} took longer than ${timeoutMs} ms`, "ETIMEOUT")),
            timeoutMs,
          );
        }),
      ]);
    } catch (e) {
      if (e instanceof DnsError) throw e;
      const code = (e as NodeJS.ErrnoException).code ?? "EDNS";
      throw new DnsError(`DNS lookup of ${host} failed (${code})`, code);
    } finally {
      clearTimeout(timer);
    }
  }
  const verdicts = addresses.map((a) => ({ address: a, verdict: checkAddress(a, policy) }));
  const allowed = verdicts.filter((v) => v.verdict.ok).map((v) => v.address);
  if (allowed.length === 0) {
    const first = verdicts.find((v) => !v.verdict.ok);
    const why = first && !first.verdict.ok ? first.verdict.reason : "no address";
    throw new SsrfBlockedError(`refusing to connect to ${host}: ${why}`);
  }
  return allowed;
}

/** undici's connector returns the socket it opens, though its types say void. */
type SocketReturningConnector = (options: buildConnector.Options, callback: buildConnector.Callback) => Socket | undefined;

/** An undici `connect` function that only dials vetted addresses, within connectTimeoutMs. */
export function guardedConnector(opts: {
  policy: AddressPolicy;
  connectTimeoutMs: number;
  resolve?: Resolver;
}): buildConnector.connector {
  // undici's own connect timeout runs on its coarse timers (up to half a second late, so a 1 s
  // timeout could lose the race against a 1.5 s acknowledgement timeout): ours is a plain timer.
  const base = buildConnector({ timeout: 0 }) as SocketReturningConnector;
  return (options, callback) => {
    vettedAddresses(options.hostname, opts.policy, opts.connectTimeoutMs, opts.resolve).then(
      ([address]) => {
        const servername = isIP(options.hostname) ? undefined : options.hostname;
        let done = false;
        const finish: buildConnector.Callback = (...args) => {
          if (done) return void args[1]?.destroy();
          done = true;
          clearTimeout(timer);
          callback(...args);
        };
        const timer = setTimeout(() => {
          const err = new errors.ConnectTimeoutError(
            `no connection to ${options.hostname}${options.port ? `:${options.port}` : ""} (${address}) within ${opts.connectTimeoutMs} ms`,
          );
          socket?.destroy(err);
          finish(err, null);
        }, opts.connectTimeoutMs);
        const socket = base({ ...options, hostname: address!, ...(servername ? { servername } : {}) }, finish);
      },
      (err: Error) => callback(err, null),
    );
  };
}
