import { noContent, route } from "@/lib/http/route";
import { removeAppMember } from "@/lib/accounts/app-members";
import { AppMemberParams } from "@/lib/accounts/schemas";

// DELETE /api/v1/app/{app_id}/member/{email} — remove an integrator; their portal sessions of it end at once
export const DELETE = route(
  {
    doc: { id: "herald.application.remove-member", tag: "Members", summary: "Remove an integrator from the application; their portal sessions of it end at once, their sign-in sessions when it was their last access", responses: { 204: null } },
    auth: "operator",
    write: true,
    params: AppMemberParams,
  },
  async ({ scope, params }) => {
    await removeAppMember(scope, params.app_id, params.email);
    return noContent;
  },
);
