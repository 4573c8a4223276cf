import { z } from "zod";
import { route } from "@/lib/http/route";
import { alertSettings, setAlertSettings } from "@/lib/notifications/alert-settings";

// GET /api/v1/portal/notifications — the signed-in member's email alerts setting
export const GET = route(
  {
    doc: {
      id: "herald.portal.notifications.get",
      tag: "Portal",
      summary: "The signed-in application member's email alerts (endpoint failing, disabled, recovered)",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
  },
  ({ principal }) => alertSettings(principal),
);

const Body = z.object({ endpointAlerts: z.boolean({ error: "must be true or false" }) }).strict();

// PUT /api/v1/portal/notifications — opt in to (or out of) email alerts about the application's endpoints
export const PUT = route(
  {
    doc: {
      id: "herald.portal.notifications.update",
      tag: "Portal",
      summary: "Opt in to (or out of) emails when an endpoint of the application starts failing, is disabled or recovers",
      responses: { 200: "AnyObject" },
    },
    auth: "any",
    body: Body,
  },
  ({ principal, body }) => setAlertSettings(principal, body),
);
