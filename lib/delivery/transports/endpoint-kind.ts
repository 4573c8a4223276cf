// The kinds of endpoint, told apart by their URL (see transports/index.ts). Herald writes the
// two internal schemes itself; the API refuses them (only http and https are accepted).

export const CAPTURE_SCHEME = "herald-capture:";
export const LISTEN_SCHEME = "herald-listen:";

export type EndpointKind = "http" | "capture" | "listen";

export function transportKind(url: string): EndpointKind {
  if (url.startsWith(CAPTURE_SCHEME)) return "capture";
  if (url.startsWith(LISTEN_SCHEME)) return "listen";
  return "http";
}

export const captureUrl = (endpointId: string) => `${CAPTURE_SCHEME}${endpointId}`;
export const listenUrl = (endpointId: string) => `${LISTEN_SCHEME}${endpointId}`;

/** The endpoint id an internal URL names, or null. */
export function internalEndpointId(url: string): string | null {
  const kind = transportKind(url);
  if (kind === "http") return null;
  const id = url.slice(kind === "capture" ? CAPTURE_SCHEME.length : LISTEN_SCHEME.length);
  return /^ep_[0-9a-z]{26}$/.test(id) ? id : null;
}
