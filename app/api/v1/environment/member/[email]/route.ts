import { noContent, route } from "@/lib/http/route";
import { changeOperatorRole, removeOperator } from "@/lib/accounts/members";
import { MemberEmailParams, OperatorRolePatch } from "@/lib/accounts/schemas";

// PATCH /api/v1/environment/member/{email} — change an operator's role
export const PATCH = route(
  {
    doc: { id: "herald.environment.update-member", tag: "Members", summary: "Change an operator's role (the last owner stays owner)", responses: { 200: "OperatorMemberOut" } },
    auth: "operator",
    write: true,
    params: MemberEmailParams,
    body: OperatorRolePatch,
  },
  ({ principal, params, body }) => changeOperatorRole(principal, params.email, body.role),
);

// DELETE /api/v1/environment/member/{email} — remove an operator; their sessions lose this environment at once
export const DELETE = route(
  {
    doc: { id: "herald.environment.remove-member", tag: "Members", summary: "Remove an operator; their signed-in sessions reach this environment no more, at once, and end when it was their last access", responses: { 204: null } },
    auth: "operator",
    write: true,
    params: MemberEmailParams,
  },
  async ({ principal, params }) => {
    await removeOperator(principal, params.email);
    return noContent;
  },
);
