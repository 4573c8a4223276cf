import { z } from "zod";
import { errorResponse } from "@/lib/http/route";
import { parseJson, readBody } from "@/lib/http/read-body";
import { parseOr422 } from "@/lib/http/validation";
import { changePassword } from "@/lib/accounts/change-password";
import { CLIENT_ADDRESS_HEADER } from "@/lib/accounts/client-address";
import { accountRequest } from "@/lib/accounts/session-cookie";

const Body = z
  .object({
    currentPassword: z.string().max(1024).optional(),
    newPassword: z.string({ error: "is required: the password to set" }),
  })
  .strict();

// POST /api/account/password — the signed-in user sets a first password or changes theirs
// ({"currentPassword", "newPassword"}; the current one only when they have one). Cookie-
// authenticated like sign-out-everywhere, so it needs the header `x-herald-csrf: 1`.
export async function POST(req: Request): Promise<Response> {
  try {
    const { user, sessionId } = await accountRequest(req);
    const body = parseOr422(Body, parseJson(await readBody(req)), "body");
    const result = await changePassword({ id: user.id, sessionId }, body, req.headers.get(CLIENT_ADDRESS_HEADER));
    return Response.json(result);
  } catch (e) {
    return errorResponse(e);
  }
}
