"use client";
import { useRouter } from "next/navigation";
import { LoadError } from "@/components/portal/live-status";
import { EndpointForm, emptyEndpointForm, endpointBody } from "@/components/portal/endpoint-form";
import { PageHeader } from "@/components/portal/page-header";
import { Notice, Spinner } from "@/components/ui/notice";
import { fieldErrorsOf, useUrlCheck } from "../../../_lib/forms";
import { useCatalog, usePortal, usePortalMutations, useSettings } from "../../../_lib/queries";

export default function NewEndpointPage() {
  const router = useRouter();
  const { capabilities } = usePortal();
  const catalog = useCatalog();
  const settings = useSettings();
  const m = usePortalMutations();
  const [urlCheck, onUrlChange] = useUrlCheck(m.validateUrl);
  const errors = fieldErrorsOf(m.createEndpoint.error);

  if (!capabilities.write) return <Notice tone="warn" title="Read-only">This portal link cannot add endpoints.</Notice>;
  if (catalog.isPending || settings.isPending) return <Spinner label="Loading the event catalog" />;
  if (!settings.data) return <LoadError title="Could not load the form" error={settings.error} onRetry={() => void settings.refetch()} />;
  const bounds = settings.data;
  return (
    <>
      <PageHeader title="Add endpoint" description="Herald will POST signed webhooks to this URL, retrying with backoff when it does not answer 2xx." />
      <EndpointForm
        mode="create"
        initial={emptyEndpointForm}
        catalog={catalog.data?.data ?? []}
        bounds={bounds}
        urlCheck={urlCheck}
        onUrlChange={onUrlChange}
        submitting={m.createEndpoint.isPending}
        fieldErrors={errors.fields}
        formError={m.createEndpoint.error ? errors.form : undefined}
        onCancel={() => router.push("/portal/endpoints")}
        onSubmit={(values) =>
          m.createEndpoint.mutate(endpointBody(values, "create", bounds), {
            onSuccess: (ep) => router.push(`/portal/endpoints/${ep.id}?created=1`),
          })
        }
      />
    </>
  );
}
