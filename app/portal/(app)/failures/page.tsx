"use client";
import { useState } from "react";
import { FailureGroupsTable, HeldDeliveries } from "@/components/portal/failure-groups-table";
import { PageHeader } from "@/components/portal/page-header";
import { LiveStatus, LoadError } from "@/components/portal/live-status";
import { TaskProgress } from "@/components/portal/task-progress";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { statusCodeLabel } from "@/components/ui/format";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import type { FailureGroups } from "@/lib/portal/failure-groups";
import { useTaskStream } from "@/app/_lib/task-stream";
import { client } from "../../_lib/api";
import { liveState, useFailures, usePortal, usePortalMutations } from "../../_lib/queries";

type Group = FailureGroups["data"][number];

export default function FailuresPage() {
  const { capabilities } = usePortal();
  const failures = useFailures();
  const m = usePortalMutations();
  const [confirm, setConfirm] = useState<Group | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const stream = useTaskStream(client, taskId);
  const groups = failures.data?.data ?? [];
  const held = failures.data?.held ?? [];
  return (
    <>
      <PageHeader
        title="Failures"
        description="Deliveries Herald gave up on (dead-lettered) and deliveries still failing, grouped by endpoint and by what your server answered, and those held behind an open circuit. Fix the cause, then retry the group."
      />
      <div className="mb-4">
        <Notice title="A 200 is final">
          If your handler answers 200 and fails afterwards, Herald counts the delivery as succeeded and it never shows
          here. Acknowledge after you have stored the event (or queued the work), not before.
        </Notice>
      </div>
      {failures.isPending && <Spinner label="Loading failures" />}
      {failures.data && (
        <p className="mb-3">
          <LiveStatus {...liveState(failures)} />
        </p>
      )}
      <LoadError title="Could not load the failures" error={failures.error} onRetry={() => void failures.refetch()} />
      {failures.data && groups.length === 0 && held.length === 0 && (
        <EmptyState title="No failures">Every delivery went through, or is still on its first try.</EmptyState>
      )}
      {held.length > 0 && <HeldDeliveries held={held} canRetry={capabilities.retry} />}
      {groups.length > 0 && (
        <FailureGroupsTable
          groups={groups}
          canRetry={capabilities.retry}
          // Exactly the group: its endpoint and last status code, dead-lettered or still retrying.
          logsHref={(g) => `/portal/logs?endpoint=${g.endpointId}&status=dead_lettered,failed&statusCode=${g.statusCode}`}
          onRetryAll={(g) => {
            setTaskId(null);
            m.bulkRetry.reset();
            setConfirm(g);
          }}
        />
      )}
      <Dialog
        open={confirm !== null}
        onClose={() => {
          setConfirm(null);
          void failures.refetch();
        }}
        title="Retry all dead-lettered deliveries in this group?"
        footer={
          taskId ? (
            <Button onClick={() => setConfirm(null)}>Close</Button>
          ) : (
            <>
              <Button onClick={() => setConfirm(null)}>Cancel</Button>
              <Button
                variant="primary"
                disabled={m.bulkRetry.isPending}
                onClick={() =>
                  confirm &&
                  m.bulkRetry.mutate(
                    { endpoint_id: confirm.endpointId, status_code: confirm.statusCode },
                    { onSuccess: (t) => setTaskId(t.task_id) },
                  )
                }
              >
                Retry {confirm?.deadLettered} deliveries
              </Button>
            </>
          )
        }
      >
        {confirm && (
          <div className="space-y-3 text-sm text-slate-700">
            <p>
              Each of the {confirm.deadLettered} dead-lettered deliveries that last got{" "}
              <strong>{statusCodeLabel(confirm.statusCode)}</strong> from{" "}
              <span className="break-all font-mono text-xs">{confirm.endpoint?.url}</span> gets a new attempt. A retry
              keeps the message and its <code>webhook-id</code>, so your deduplication sees the same events.
            </p>
            <ErrorText message={m.bulkRetry.error?.message} />
            {taskId && (
              <TaskProgress
                title="Retry all"
                task={stream.task}
                error={stream.error}
                cancelling={m.cancelTask.isPending}
                onCancel={() => m.cancelTask.mutate(taskId)}
              />
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
