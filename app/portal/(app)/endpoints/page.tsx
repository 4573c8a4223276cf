"use client";
import Link from "next/link";
import { useMemo } from "react";
import { EndpointList } from "@/components/portal/endpoint-list";
import { PageHeader } from "@/components/portal/page-header";
import { LiveStatus, LoadError } from "@/components/portal/live-status";
import { EmptyState, Spinner } from "@/components/ui/notice";
import { liveState, useEndpointHealth, useEndpoints, usePortal } from "../../_lib/queries";

export default function EndpointsPage() {
  const { capabilities } = usePortal();
  const endpoints = useEndpoints();
  const health = useEndpointHealth();
  const byId = useMemo(() => new Map((health.data?.data ?? []).map((h) => [h.endpointId, h])), [health.data]);
  return (
    <>
      <PageHeader
        title="Endpoints"
        description="The URLs that receive your webhooks, their state, and how deliveries went over the last 24 hours."
        actions={
          capabilities.write && (
            <Link href="/portal/endpoints/new" className="rounded-md bg-(--accent) px-3.5 py-2 text-sm font-medium text-(--accent-text) hover:brightness-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
              Add endpoint
            </Link>
          )
        }
      />
      {endpoints.isPending && <Spinner label="Loading endpoints" />}
      {endpoints.data && (
        <p className="mb-3">
          <LiveStatus {...liveState(endpoints)} />
        </p>
      )}
      <LoadError title="Could not load endpoints" error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      {endpoints.data && endpoints.data.data.length === 0 && (
        <EmptyState title="No endpoints yet">
          {capabilities.write ? "Add the URL of your server to start receiving webhooks." : "None have been added to this application."}
        </EmptyState>
      )}
      {endpoints.data && endpoints.data.data.length > 0 && (
        <EndpointList endpoints={endpoints.data.data} health={byId} hrefFor={(id) => `/portal/endpoints/${id}`} />
      )}
    </>
  );
}
