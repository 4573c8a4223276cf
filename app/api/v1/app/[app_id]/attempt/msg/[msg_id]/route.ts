import { route } from "@/lib/http/route";
import { attemptListQuery, msgParams } from "@/lib/http/params";
import { listAttemptsByMessage } from "@/lib/attempts/query-attempts";

// GET /api/v1/app/{app_id}/attempt/msg/{msg_id} — attempts made for a message, newest first
export const GET = route(
  {
    doc: {
      id: "v1.message-attempt.list-by-msg",
      tag: "Message Attempt",
      summary: "Attempts made for a message, newest first",
      svix: true,
      responses: { 200: "ListResponse_MessageAttemptOut_" },
    },
    auth: "any",
    params: msgParams,
    query: attemptListQuery,
  },
  ({ scope, params, query }) => listAttemptsByMessage(scope, params.app_id, params.msg_id, query),
);
