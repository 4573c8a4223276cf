"use client";
import { useState } from "react";
import { FailureGroupsTable, HeldDeliveries } from "@/components/portal/failure-groups-table";
import { TaskProgress } from "@/components/portal/task-progress";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { statusCodeLabel } from "@/components/ui/format";
import { EmptyState, ErrorText, Notice, Spinner } from "@/components/ui/notice";
import type { FailureGroups } from "@/lib/portal/failure-groups";
import { useConsole } from "../../_lib/providers";
import { useConsoleMutations, useFailures } from "../../_lib/queries";
import { useTaskStream } from "@/app/_lib/task-stream";
import { client } from "../../_lib/api";

type Group = FailureGroups["data"][number];

/** The portal's failure groups with "retry all", for the operator. */
export function FailuresTab({ appId }: { appId: string }) {
  const { canWrite } = useConsole();
  const failures = useFailures(appId);
  const m = useConsoleMutations();
  const [confirm, setConfirm] = useState<Group | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const stream = useTaskStream(client, taskId);
  const groups = failures.data?.data ?? [];
  const held = failures.data?.held ?? [];
  return (
    <>
      {failures.isPending && <Spinner label="Loading failures" />}
      {failures.error && <Notice tone="error">{failures.error.message}</Notice>}
      {failures.data && groups.length === 0 && held.length === 0 && <EmptyState title="No failures">Every delivery went through, or is still on its first try.</EmptyState>}
      {held.length > 0 && <HeldDeliveries held={held} canRetry={canWrite} />}
      {groups.length > 0 && (
        <FailureGroupsTable
          groups={groups}
          canRetry={canWrite}
          logsHref={(g) => `/console/applications/${appId}?tab=logs&endpoint=${g.endpointId}&status=dead_lettered`}
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
                    { appId, body: { endpoint_id: confirm.endpointId, status_code: confirm.statusCode } },
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
              Each of the {confirm.deadLettered} dead-lettered deliveries that last got <strong>{statusCodeLabel(confirm.statusCode)}</strong> from{" "}
              <span className="break-all font-mono text-xs">{confirm.endpoint?.url}</span> gets a new attempt, with the same message and webhook-id.
            </p>
            <ErrorText message={m.bulkRetry.error?.message} />
            {taskId && <TaskProgress title="Retry all" task={stream.task} error={stream.error} cancelling={m.cancelTask.isPending} onCancel={() => m.cancelTask.mutate(taskId)} />}
          </div>
        )}
      </Dialog>
    </>
  );
}
