import { z } from "zod";
import { route } from "@/lib/http/route";
import { appParams } from "@/lib/http/params";
import { checkEndpointUrl } from "@/lib/portal/validate-endpoint-url";

// POST /api/v1/portal/app/{app_id}/validate-url — would this endpoint URL be accepted? (SSRF rules included; changes nothing)
export const POST = route(
  { auth: "any", params: appParams, body: z.object({ url: z.string().min(1).max(65536) }) },
  ({ scope, params, body }) => checkEndpointUrl(scope, params.app_id, body.url),
);
