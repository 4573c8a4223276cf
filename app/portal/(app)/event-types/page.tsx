"use client";
import { useState } from "react";
import { LoadError } from "@/components/portal/live-status";
import { DownloadOpenApiButton } from "@/components/portal/download-openapi-button";
import { EventTypeCard } from "@/components/portal/event-type-card";
import { PageHeader } from "@/components/portal/page-header";
import { inputClass } from "@/components/ui/field";
import { EmptyState, Spinner } from "@/components/ui/notice";
import { downloadCatalogOpenApi } from "../../_lib/dev-tools";
import { useCatalog, usePortal } from "../../_lib/queries";

export default function EventCatalogPage() {
  const { capabilities, application } = usePortal();
  const catalog = useCatalog();
  const [filter, setFilter] = useState("");
  const items = (catalog.data?.data ?? []).filter(
    (t) => t.name.toLowerCase().includes(filter.toLowerCase()) || t.description.toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <>
      <PageHeader
        title="Event catalog"
        description="Every event you can subscribe to, with its JSON schema and an example payload. Names follow resource.action; a breaking change gets a new event type, fields are only ever added."
        actions={<DownloadOpenApiButton onDownload={() => downloadCatalogOpenApi(`${application.uid ?? application.id}-webhooks.openapi.json`)} />}
      />
      <input aria-label="Search event types" placeholder="Search event types" className={`${inputClass} mb-4 max-w-sm`} value={filter} onChange={(e) => setFilter(e.target.value)} />
      {catalog.isPending && <Spinner label="Loading the catalog" />}
      <LoadError title="Could not load the event catalog" error={catalog.error} onRetry={() => void catalog.refetch()} />
      {catalog.data && items.length === 0 && <EmptyState title={filter ? "No event type matches" : "The catalog is empty"} />}
      <ul className="space-y-2" aria-label="Event types">
        {items.map((t) => (
          <EventTypeCard key={t.name} eventType={t} sendHref={capabilities.sendExample ? `/portal/send?eventType=${encodeURIComponent(t.name)}` : null} />
        ))}
      </ul>
    </>
  );
}
