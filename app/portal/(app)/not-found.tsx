import Link from "next/link";
import { PageHeader } from "@/components/portal/page-header";

export default function PortalNotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="This portal has no page at this address. It may have moved, or the link was cut short." />
      <p className="text-sm">
        <Link href="/portal/endpoints" className="text-blue-800 underline">
          Go to your endpoints
        </Link>
      </p>
    </>
  );
}
