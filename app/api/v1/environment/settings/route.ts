import { route } from "@/lib/http/route";
import {
  EnvironmentSettingsPatch,
  getEnvironmentSettings,
  updateEnvironmentSettings,
} from "@/lib/environments/environment-settings";

// GET /api/v1/environment/settings — the environment's retry schedule and the one endpoints follow
export const GET = route(
  {
    doc: {
      id: "herald.environment.settings",
      tag: "Environment",
      summary: "The environment's retry schedule, and the one endpoints without their own follow",
      responses: { 200: "EnvironmentSettingsOut" },
    },
    auth: "operator",
  },
  ({ scope }) => getEnvironmentSettings(scope),
);

// PATCH /api/v1/environment/settings — set the environment's retry schedule (null: the platform default)
export const PATCH = route(
  {
    doc: {
      id: "herald.environment.update-settings",
      tag: "Environment",
      summary:
        "Set the environment's retry schedule (null: the platform default); applies to retries scheduled from now on",
      responses: { 200: "EnvironmentSettingsOut" },
    },
    auth: "operator",
    write: true,
    body: EnvironmentSettingsPatch,
  },
  ({ scope, body }) => updateEnvironmentSettings(scope, body),
);
