"use client";
import Link from "next/link";
import { PageHeader } from "@/components/portal/page-header";

// A portal address that names no page (an old bookmark, a typo in an embed's URL): said inside
// the portal's own shell, with its navigation and session, instead of the site's bare 404.
export default function PortalNotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="This portal has no page at this address." />
      <p className="text-sm">
        <Link className="text-blue-800 underline" href="/portal/endpoints">
          Go to your endpoints
        </Link>{" "}
        or pick a page above.
      </p>
    </>
  );
}
