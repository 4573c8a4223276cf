import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/env";

// Portal pages may be framed only by the origins in HERALD_PORTAL_FRAME_ANCESTORS (CSP
// frame-ancestors, e.g. "'self' https://dashboard.example.com"); every other page keeps the
// browser default. The value is read at request time, so changing it needs no rebuild.

export function frameAncestors(setting: string): string {
  // One header line, no directive breaks: the setting is a space-separated source list.
  const sources = setting.replace(/[;,\r\n]+/g, " ").trim().split(/\s+/).filter(Boolean);
  return `frame-ancestors ${sources.length > 0 ? sources.join(" ") : "'none'"}`;
}

export function proxy(request: NextRequest) {
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
  const res = NextResponse.next();
  res.headers.set("content-security-policy", frameAncestors(env().HERALD_PORTAL_FRAME_ANCESTORS));
  res.headers.set("referrer-policy", "no-referrer");
  res.headers.set("x-content-type-options", "nosniff");
  return res;
}

export const config = { matcher: ["/portal", "/portal/:path*", "/console", "/console/:path*", "/api/:path(.*%.*)"] };
