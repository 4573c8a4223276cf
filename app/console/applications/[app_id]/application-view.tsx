"use client";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { EndpointList } from "@/components/portal/endpoint-list";
import { PageHeader } from "@/components/portal/page-header";
import { Tabs } from "@/components/ui/tabs";
import { EmptyState, Notice, Spinner } from "@/components/ui/notice";
import { useApplication, useEndpointHealth, useEndpoints } from "../../_lib/queries";
import { FailuresTab } from "./failures-tab";
import { LogsTab } from "./logs-tab";
import { PortalAccessTab } from "./portal-access-tab";

const TABS = [
  { key: "endpoints", label: "Endpoints" },
  { key: "logs", label: "Delivery logs" },
  { key: "failures", label: "Failures" },
  { key: "portal", label: "Portal access" },
] as const;
type Tab = (typeof TABS)[number]["key"];

/** One application, as its portal shows it, operated as the operator (same API, operator scope). */
export function ApplicationView({ appId }: { appId: string }) {
  const app = useApplication(appId);
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const tab: Tab = TABS.find((t) => t.key === params.get("tab"))?.key ?? "endpoints";

  if (app.isPending) return <Spinner label="Loading the application" />;
  if (app.error)
    return (
      <Notice tone="error" title="Could not load this application">
        {app.error.message} <Link className="underline" href="/console/applications">Back to applications</Link>
      </Notice>
    );
  const a = app.data;
  return (
    <>
      <title>{`${a.name} · Herald console`}</title>
      <p className="mb-1 text-sm">
        <Link href="/console/applications" className="text-blue-800 hover:underline">
          ← Applications
        </Link>
      </p>
      <PageHeader
        title={a.name}
        description={
          <span className="font-mono text-xs">
            {a.id}
            {a.uid ? ` · uid ${a.uid}` : ""} · payload format {a.payloadFormat}
          </span>
        }
      />
      <Tabs label="Application" tabs={[...TABS]} selected={tab} onSelect={(k) => router.replace(`${pathname}?tab=${k}`, { scroll: false })}>
        <div className="pt-4">
          {tab === "endpoints" && <EndpointsTab appId={a.id} />}
          {tab === "logs" && <LogsTab appId={a.id} />}
          {tab === "failures" && <FailuresTab appId={a.id} />}
          {tab === "portal" && <PortalAccessTab appId={a.id} appName={a.name} />}
        </div>
      </Tabs>
    </>
  );
}

function EndpointsTab({ appId }: { appId: string }) {
  const endpoints = useEndpoints(appId);
  const health = useEndpointHealth(appId);
  if (endpoints.isPending) return <Spinner label="Loading endpoints" />;
  if (endpoints.error) return <Notice tone="error">{endpoints.error.message}</Notice>;
  const list = endpoints.data.data;
  if (list.length === 0)
    return <EmptyState title="No endpoints yet">The customer adds endpoints in their portal (Portal access), or you add them with the API.</EmptyState>;
  return (
    <EndpointList
      endpoints={list}
      health={new Map((health.data?.data ?? []).map((h) => [h.endpointId, h]))}
      hrefFor={(id) => `/console/applications/${appId}?tab=logs&endpoint=${id}`}
    />
  );
}
