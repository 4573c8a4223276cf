import { noContent, route } from "@/lib/http/route";
import { attemptParams } from "@/lib/http/params";
import { expungeAttemptContent } from "@/lib/attempts/query-attempts";

// DELETE /api/v1/app/{app_id}/msg/{msg_id}/attempt/{attempt_id}/content — delete the bodies an attempt stored
export const DELETE = route(
  {
    doc: {
      id: "v1.message-attempt.expunge-content",
      tag: "Message Attempt",
      summary: "Delete the bodies an attempt stored (status and timing stay)",
      svix: true,
      responses: { 204: null },
    },
    auth: "operator",
    write: true,
    params: attemptParams,
  },
  async ({ scope, params }) => {
    await expungeAttemptContent(scope, params.app_id, params.msg_id, params.attempt_id);
    return noContent;
  },
);
