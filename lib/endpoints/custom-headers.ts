import { invalid } from "../http/errors";

// Headers Herald sets itself and an endpoint's custom headers may not replace.
const RESERVED = new Set([
  "content-type",
  "content-length",
  "user-agent",
  "host",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);
const RESERVED_PREFIXES = ["webhook-", "svix-", "herald-"];

// Values of these are credentials: shown as names only (EndpointHeadersOut.sensitive).
const SENSITIVE = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$|secret|token|password/i;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Herald's own headers and the transport's: no custom header may set them. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p));
}

export function validateCustomHeaders(headers: Record<string, string | null>, loc = ["body", "headers"]): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw invalid([...loc, name], "is not a valid HTTP header name");
    if (isReservedHeader(name)) throw invalid([...loc, name], "is set by Herald and cannot be overridden");
    if (value !== null && /[\r\n\0]/.test(value)) throw invalid([...loc, name], "value must not contain line breaks");
  }
}

export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE.test(name);
}

/** What the API shows of custom headers: sensitive values never, only their names (the UI shows "set"). */
export function splitSensitiveHeaders(headers: Record<string, string>) {
  const sensitive = Object.keys(headers).filter(isSensitiveHeader);
  const visible = Object.fromEntries(Object.entries(headers).filter(([k]) => !isSensitiveHeader(k)));
  return { headers: visible, sensitive };
}
