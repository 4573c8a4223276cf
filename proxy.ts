import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/env";
import { EMBED_ENV_PARAM, embedOriginsFor, frameAncestors } from "./lib/environments/portal-embedding";

// Portal pages may be framed only by the origins in HERALD_PORTAL_FRAME_ANCESTORS (CSP
// frame-ancestors, e.g. "'self' https://dashboard.example.com") and, for a page opened with
// ?env=<environment id> (what portal links carry), that environment's portalEmbedOrigins
// (lib/environments/portal-embedding.ts); every other page keeps the browser default. Both are
// read at request time, so changing them needs no rebuild; an environment's origins are cached
// for 5 s per process (EMBED_ORIGINS_TTL_MS), so a change takes effect within that.

export async function proxy(request: NextRequest) {
  // API paths with malformed percent-encoding (matched below: only paths with a "%"): Next.js
  // would fail to decode the route's parameters and answer a bare 500. It is the caller's mistake.
  if (request.nextUrl.pathname.startsWith("/api/")) {
    try {
      decodeURIComponent(request.nextUrl.pathname);
      return NextResponse.next();
    } catch {
      return NextResponse.json(
        { code: "bad_request", detail: "The request path has malformed percent-encoding" },
        { status: 400 },
      );
    }
  }
  if (request.nextUrl.pathname === "/console" || request.nextUrl.pathname.startsWith("/console/")) {
    // The console's layout sends a signed-out visitor to sign-in and back to this very page.
    const forwarded = new Headers(request.headers);
    forwarded.set("x-herald-pathname", request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers: forwarded } });
  }
  // The sign-in pages are never framed (a sign-in form inside another site's frame is how
  // clickjacking starts), whatever ?env= says: only the server-wide list applies there.
  const signIn = request.nextUrl.pathname.startsWith("/portal/sign-in");
  const origins = signIn ? [] : await embedOriginsFor(request.nextUrl.searchParams.get(EMBED_ENV_PARAM));
  const res = NextResponse.next();
  res.headers.set("content-security-policy", frameAncestors(env().HERALD_PORTAL_FRAME_ANCESTORS, origins));
  res.headers.set("referrer-policy", "no-referrer");
  res.headers.set("x-content-type-options", "nosniff");
  return res;
}

export const config = { matcher: ["/portal", "/portal/:path*", "/console", "/console/:path*", "/api/:path(.*%.*)"] };
