import { route } from "@/lib/http/route";
import { attemptParams } from "@/lib/http/params";
import { getAttempt } from "@/lib/attempts/query-attempts";

// GET /api/v1/app/{app_id}/msg/{msg_id}/attempt/{attempt_id} — one attempt with the exact request and response
export const GET = route(
  {
    doc: {
      id: "v1.message-attempt.get",
      tag: "Message Attempt",
      summary: "One attempt, with exactly what was sent and what came back",
      svix: true,
      responses: { 200: "MessageAttemptOut" },
    },
    auth: "any",
    params: attemptParams,
  },
  ({ scope, params }) => getAttempt(scope, params.app_id, params.msg_id, params.attempt_id),
);
