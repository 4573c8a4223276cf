"use client";
import { AlertSettingsForm } from "@/components/portal/alert-settings-form";
import { LoadError } from "@/components/portal/live-status";
import { PageHeader } from "@/components/portal/page-header";
import { Notice, Spinner } from "@/components/ui/notice";
import { useAlertSettings, usePortal, usePortalMutations } from "../../_lib/queries";

// The signed-in member's email alerts for this application (opt-in; off until they turn it on).
export default function NotificationsPage() {
  const { member, application } = usePortal();
  const settings = useAlertSettings();
  const { setAlerts } = usePortalMutations();
  return (
    <>
      <PageHeader
        title="Notifications"
        description={`Hear about trouble with ${application.name}'s endpoints by email, since a broken endpoint is exactly when webhooks cannot tell you.`}
      />
      {!member ? (
        <Notice>Email alerts belong to a person: sign in at /portal/sign-in as a member of this application to set yours.</Notice>
      ) : (
        <>
          {settings.isPending && <Spinner label="Loading" />}
          <LoadError title="Could not load your alerts" error={settings.error} onRetry={() => void settings.refetch()} />
          {settings.data?.email != null && (
            <AlertSettingsForm
              email={settings.data.email}
              enabled={settings.data.endpointAlerts}
              emailConfigured={settings.data.emailConfigured}
              saving={setAlerts.isPending}
              error={setAlerts.error?.message ?? null}
              onSave={(on) => setAlerts.mutateAsync(on)}
            />
          )}
        </>
      )}
    </>
  );
}
