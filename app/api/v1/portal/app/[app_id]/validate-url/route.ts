import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { ValidateUrlIn } from "@/lib/portal/schemas";
import { checkEndpointUrl } from "@/lib/portal/validate-endpoint-url";

// POST /api/v1/portal/app/{app_id}/validate-url — would this endpoint URL be accepted? (SSRF rules included; changes nothing)
export const POST = route(
  {
    doc: {
      id: "herald.portal.validate-url",
      tag: "Portal",
      summary: "Would this endpoint URL be accepted? (SSRF rules included; changes nothing)",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    params: appParams,
    body: ValidateUrlIn,
  },
  ({ scope, params, body }) => checkEndpointUrl(scope, params.app_id, body.url),
);
