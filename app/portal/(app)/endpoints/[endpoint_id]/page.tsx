"use client";
import Link from "next/link";
import { useParams, useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import { CircuitNotice } from "@/components/portal/circuit-notice";
import { DeleteEndpointDialog } from "@/components/portal/delete-endpoint-dialog";
import { EndpointForm, endpointBody, scheduleText, type EndpointFormValues } from "@/components/portal/endpoint-form";
import { EndpointMetricsPanel } from "@/components/portal/endpoint-metrics";
import { EndpointOverview } from "@/components/portal/endpoint-overview";
import type { MetricWindow } from "@/lib/endpoints/endpoint-metrics";
import { HeadersPanel } from "@/components/portal/headers-panel";
import { LiveStatus } from "@/components/portal/live-status";
import { PageHeader } from "@/components/portal/page-header";
import { SecretPanel } from "@/components/portal/secret-panel";
import { EMPTY_DAY, Sparkline } from "@/components/portal/sparkline";
import { Button } from "@/components/ui/button";
import { percent } from "@/components/ui/format";
import { Notice, Spinner } from "@/components/ui/notice";
import { ApiFailure } from "../../../_lib/api";
import { fieldErrorsOf, useUrlCheck } from "../../../_lib/forms";
import {
  liveState,
  useCatalog,
  useEndpoint,
  useEndpointHeaders,
  useEndpointHealth,
  useEndpointMetrics,
  useEndpointSecret,
  useEndpointStats,
  usePortal,
  usePortalMutations,
  useSettings,
} from "../../../_lib/queries";

function EndpointDetail() {
  const { endpoint_id: id } = useParams<{ endpoint_id: string }>();
  const created = useSearchParams().get("created") === "1";
  const router = useRouter();
  const { capabilities } = usePortal();
  const endpoint = useEndpoint(id);
  const stats = useEndpointStats(id);
  const [metricWindow, setMetricWindow] = useState<MetricWindow>("24h");
  const metrics = useEndpointMetrics(id, metricWindow);
  const health = useEndpointHealth();
  const headers = useEndpointHeaders(id);
  const settings = useSettings();
  const catalog = useCatalog();
  const m = usePortalMutations();
  const [reveal, setReveal] = useState(false);
  const secret = useEndpointSecret(id, reveal && capabilities.secrets);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [urlCheck, onUrlChange] = useUrlCheck(m.validateUrl);

  if (endpoint.isPending) return <Spinner label="Loading endpoint" />;
  // Without data yet: the error in place of the page. A later refresh that fails keeps the page
  // (marked as paused below) instead of replacing it.
  if (!endpoint.data) {
    const notFound = endpoint.error instanceof ApiFailure && endpoint.error.status === 404;
    return (
      <Notice tone="error" title={notFound ? "Endpoint not found" : "Could not load the endpoint"}>
        <p>
          {notFound
            ? "There is no endpoint with this id in this application: it may have been deleted, or the link is for another application. Pick one from the list of endpoints."
            : endpoint.error?.message}
        </p>
        <p className="mt-2 flex flex-wrap items-center gap-3">
          {!notFound && (
            <Button size="sm" onClick={() => void endpoint.refetch()}>
              Try again
            </Button>
          )}
          <Link href="/portal/endpoints" className="underline">
            Back to endpoints
          </Link>
        </p>
      </Notice>
    );
  }
  const ep = endpoint.data;
  const h = health.data?.data.find((x) => x.endpointId === ep.id);
  const paused = ep.state !== "active";
  const editErrors = fieldErrorsOf(m.updateEndpoint.error);
  const initial: EndpointFormValues = {
    url: ep.url,
    description: ep.description,
    eventTypes: ep.filterTypes ?? [],
    channels: (ep.channels ?? []).join(", "),
    headers: [],
    rateLimit: ep.rateLimit ? String(ep.rateLimit) : "",
    retryMode: ep.retrySchedule ? "custom" : "default",
    retrySchedule: scheduleText(ep.retrySchedule),
    signing: ep.signing,
  };

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/portal/endpoints" className="text-blue-800 hover:underline">
          ← Endpoints
        </Link>
      </p>
      <PageHeader
        title={ep.description || "Endpoint"}
        description={<span className="break-all font-mono">{ep.url}</span>}
        actions={
          capabilities.write &&
          !editing && (
            <>
              <Button
                onClick={() => m.updateEndpoint.mutate({ id: ep.id, body: { disabled: !paused } })}
                disabled={m.updateEndpoint.isPending}
              >
                {paused ? "Resume" : "Pause"}
              </Button>
              <Button onClick={() => setEditing(true)}>Edit</Button>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          )
        }
      />
      <p className="mb-3">
        <LiveStatus {...liveState(endpoint)} />
      </p>
      {created && (
        <Notice tone="success" title="Endpoint created">
          Reveal the signing key below and add it to your server, then send a sample event to try it.
        </Notice>
      )}
      {ep.state === "disabled" && (
        <div className="mb-4">
          <Notice tone="warn" title="Herald disabled this endpoint">
            It failed for too long ({ep.disabledReason ?? "no reason recorded"}). Fix your server, then resume it;
            deliveries that failed meanwhile can be retried from Failures.
          </Notice>
        </div>
      )}
      {ep.state === "active" && (
        <div className="mb-4">
          <CircuitNotice endpoint={ep} />
        </div>
      )}
      {m.updateEndpoint.error && !editing && <Notice tone="error">{m.updateEndpoint.error.message}</Notice>}

      <div className="mt-4 grid gap-4 lg:grid-cols-3">
        <section
          aria-labelledby="settings-heading"
          className="rounded-lg border border-slate-200 bg-white p-5 lg:col-span-2"
        >
          <h2 id="settings-heading" className="mb-3 text-base font-semibold">
            Settings
          </h2>
          {editing && settings.data ? (
            <EndpointForm
              mode="edit"
              initial={initial}
              catalog={catalog.data?.data ?? []}
              bounds={settings.data}
              urlCheck={urlCheck}
              onUrlChange={onUrlChange}
              submitting={m.updateEndpoint.isPending}
              fieldErrors={editErrors.fields}
              formError={m.updateEndpoint.error ? editErrors.form : undefined}
              onCancel={() => setEditing(false)}
              onSubmit={(values) =>
                m.updateEndpoint.mutate(
                  { id: ep.id, body: endpointBody(values, "edit", settings.data) },
                  { onSuccess: () => setEditing(false) },
                )
              }
            />
          ) : (
            <EndpointOverview endpoint={ep} />
          )}
        </section>
        <section aria-labelledby="health-heading" className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 id="health-heading" className="text-base font-semibold">
            Last 24 hours
          </h2>
          <p className="mt-2 text-3xl font-semibold tabular-nums">{percent(h?.successRate ?? null)}</p>
          <p className="text-xs text-slate-500">of attempts succeeded</p>
          <div className="mt-3">
            <Sparkline
              width={240}
              height={40}
              buckets={h?.buckets ?? EMPTY_DAY}
              label={h ? `${h.success} succeeded and ${h.fail} failed attempts in 24 hours` : "No attempts in 24 hours"}
            />
          </div>
          {stats.data && (
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
              <dt className="text-slate-600">Delivered</dt>
              <dd className="text-right tabular-nums">{stats.data.success}</dd>
              <dt className="text-slate-600">Dead-lettered</dt>
              <dd className="text-right tabular-nums">{stats.data.fail}</dd>
              <dt className="text-slate-600">Pending</dt>
              <dd className="text-right tabular-nums">{stats.data.pending + stats.data.sending}</dd>
            </dl>
          )}
          <ul className="mt-4 space-y-1 text-sm">
            <li>
              <Link className="text-blue-800 hover:underline" href={`/portal/logs?endpoint=${ep.id}`}>
                Delivery logs of this endpoint
              </Link>
            </li>
            {capabilities.sendExample && (
              <li>
                <Link className="text-blue-800 hover:underline" href={`/portal/send?endpoint=${ep.id}`}>
                  Send a sample event
                </Link>
              </li>
            )}
            <li>
              <Link className="text-blue-800 hover:underline" href={`/portal/verify?endpoint=${ep.id}`}>
                Verify signatures: code for your server
              </Link>
            </li>
          </ul>
        </section>
      </div>

      <section aria-labelledby="metrics-heading" className="mt-4 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="metrics-heading" className="text-base font-semibold">
          Metrics
        </h2>
        <p className="text-xs text-slate-600">What your server answered Herald's requests, and how fast.</p>
        <EndpointMetricsPanel metrics={metrics.data} window={metricWindow} onWindow={setMetricWindow} busy={metrics.isPlaceholderData} />
      </section>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        {capabilities.secrets ? (
          <SecretPanel
            algorithm={ep.signing}
            secret={reveal ? (secret.data?.key ?? null) : null}
            revealing={reveal && secret.isFetching}
            error={secret.error?.message ?? m.rotateSecret.error?.message}
            onReveal={() => setReveal(true)}
            onHide={() => setReveal(false)}
            canRotate={capabilities.rotateSecret}
            onRotate={() => m.rotateSecret.mutate(ep.id)}
            rotating={m.rotateSecret.isPending}
            rotated={m.rotateSecret.isSuccess}
            graceSeconds={settings.data?.rotationGraceSeconds ?? 86400}
          />
        ) : (
          <Notice title="Signing key hidden">
            This portal link does not show signing keys; ask the provider of this service.
          </Notice>
        )}
        <HeadersPanel
          headers={headers.data?.headers ?? {}}
          sensitive={headers.data?.sensitive ?? []}
          canEdit={capabilities.write}
          saving={m.replaceHeaders.isPending}
          error={m.replaceHeaders.error?.message}
          onSet={(name, value) => m.replaceHeaders.mutate({ id: ep.id, headers: { [name]: value } })}
          onRemove={(name) => m.replaceHeaders.mutate({ id: ep.id, headers: { [name]: null } })}
        />
      </div>

      <DeleteEndpointDialog
        open={deleting}
        url={ep.url}
        onClose={() => setDeleting(false)}
        deleting={m.deleteEndpoint.isPending}
        error={m.deleteEndpoint.error?.message}
        onConfirm={() => m.deleteEndpoint.mutate(ep.id, { onSuccess: () => router.push("/portal/endpoints") })}
      />
    </>
  );
}

export default function EndpointPage() {
  return (
    <Suspense fallback={<Spinner label="Loading endpoint" />}>
      <EndpointDetail />
    </Suspense>
  );
}
