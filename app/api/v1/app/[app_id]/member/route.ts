import { z } from "zod";
import { reply, route } from "@/lib/http/route";
import { inviteAppMember, listAppMembers } from "@/lib/accounts/app-members";
import { AppMemberIn } from "@/lib/accounts/schemas";

const Params = z.object({ app_id: z.string().min(1) });

// GET /api/v1/app/{app_id}/member — the integrators who sign in to this application's portal
export const GET = route(
  {
    doc: { id: "herald.application.list-members", tag: "Members", summary: "The integrators who sign in to this application's portal", responses: { 200: "ListResponse_AppMemberOut_" } },
    auth: "operator",
    params: Params,
  },
  ({ scope, params }) => listAppMembers(scope, params.app_id),
);

// POST /api/v1/app/{app_id}/member — invite an integrator to this application's portal (201; 200 when already a member)
export const POST = route(
  {
    doc: {
      id: "herald.application.invite-member",
      tag: "Members",
      summary: "Invite an integrator by email to this application's standalone portal (/portal/sign-in)",
      description:
        "admin: the portal with every change an unrestricted portal link allows; viewer: read-only. 201 with the invitation (an email sign-in link when SMTP is configured; otherwise, for someone who has never signed in, a one-time link in `invite.url`), or 200 when they already are a member (role unchanged; one who has never signed in is sent a new invitation, and earlier links stop working).",
      responses: { 200: "AppMemberInvitedOut", 201: "AppMemberInvitedOut" },
    },
    auth: "operator",
    write: true,
    params: Params,
    body: AppMemberIn,
  },
  async ({ scope, params, body }) => {
    const { created, member, invite } = await inviteAppMember(scope, params.app_id, body);
    return reply(created ? 201 : 200, { ...member, invite });
  },
);
