"use client";
import { LoadError } from "@/components/portal/live-status";
import { IntegrationGuide } from "@/components/guide/integration-guide";
import { EventTypeCard } from "@/components/portal/event-type-card";
import { PageHeader } from "@/components/portal/page-header";
import { Spinner } from "@/components/ui/notice";
import { DownloadOpenApiButton } from "@/components/portal/download-openapi-button";
import { downloadCatalogOpenApi } from "../../_lib/dev-tools";
import { useCatalog, usePortal, useSettings } from "../../_lib/queries";

// The integration guide inside the portal: the same text as /docs/webhooks, with this
// environment's retry schedule and this session's event catalog in place.
export default function GuidePage() {
  const { application } = usePortal();
  const settings = useSettings();
  const catalog = useCatalog();
  const types = (catalog.data?.data ?? []).filter((t) => !t.archived);
  return (
    <>
      <PageHeader
        title="Integration guide"
        description="How events reach your endpoints, how to verify them, what happens when your server fails, and how to test before you deploy."
      />
      {settings.isPending && <Spinner label="Loading" />}
      <LoadError title="Could not load the guide" error={settings.error} onRetry={() => void settings.refetch()} />
      {settings.data && (
        <IntegrationGuide
          facts={settings.data.guide}
          catalog={
            <>
              <DownloadOpenApiButton onDownload={() => downloadCatalogOpenApi(`${application.uid ?? application.id}-webhooks.openapi.json`)} />
              <ul className="space-y-2" aria-label="Event types">
                {types.map((t) => (
                  <EventTypeCard key={t.name} eventType={t} sendHref={null} />
                ))}
              </ul>
            </>
          }
        />
      )}
    </>
  );
}
