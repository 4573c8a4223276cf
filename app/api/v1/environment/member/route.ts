import { reply, route } from "@/lib/http/route";
import { inviteOperator, listOperators } from "@/lib/accounts/members";
import { OperatorMemberIn } from "@/lib/accounts/schemas";

// GET /api/v1/environment/member — the environment's operators and their roles
export const GET = route(
  {
    doc: { id: "herald.environment.list-members", tag: "Members", summary: "The environment's operators (console users) and their roles", responses: { 200: "ListResponse_OperatorMemberOut_" } },
    auth: "operator",
  },
  ({ principal }) => listOperators(principal),
);

// POST /api/v1/environment/member — invite an operator by email (201; 200 when already a member)
export const POST = route(
  {
    doc: {
      id: "herald.environment.invite-member",
      tag: "Members",
      summary: "Invite an operator by email with a role (owner or admin only; only an owner grants owner)",
      description:
        "201 with the invitation (an email sign-in link when SMTP is configured; otherwise, for someone who has never signed in, a one-time link in `invite.url`), or 200 when they already are a member (role unchanged; one who has never signed in is sent a new invitation, and earlier links stop working).",
      responses: { 200: "OperatorMemberInvitedOut", 201: "OperatorMemberInvitedOut" },
    },
    auth: "operator",
    write: true,
    body: OperatorMemberIn,
  },
  async ({ principal, body }) => {
    const { created, member, invite } = await inviteOperator(principal, body);
    return reply(created ? 201 : 200, { ...member, invite });
  },
);
