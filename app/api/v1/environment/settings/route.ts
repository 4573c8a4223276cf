import { route } from "@/lib/http/route";
import {
  EnvironmentSettingsPatch,
  getEnvironmentSettings,
  updateEnvironmentSettings,
} from "@/lib/environments/environment-settings";

// GET /api/v1/environment/settings — the environment's retry schedule, the one endpoints follow, and the portal's branding
export const GET = route(
  {
    doc: {
      id: "herald.environment.settings",
      tag: "Environment",
      summary: "The environment's retry schedule, the one endpoints without their own follow, and the portal's branding",
      responses: { 200: "EnvironmentSettingsOut" },
    },
    auth: "operator",
  },
  ({ scope }) => getEnvironmentSettings(scope),
);

// PATCH /api/v1/environment/settings — set the retry schedule (null: the platform default) and/or the portal's branding
export const PATCH = route(
  {
    doc: {
      id: "herald.environment.update-settings",
      tag: "Environment",
      summary:
        "Set the environment's retry schedule (null: the platform default; applies to retries scheduled from now on) and/or the portal's branding (fields left out stay, null removes one)",
      responses: { 200: "EnvironmentSettingsOut" },
    },
    auth: "operator",
    write: true,
    body: EnvironmentSettingsPatch,
  },
  ({ scope, body }) => updateEnvironmentSettings(scope, body),
);
