import { route } from "@/lib/http/route";
import {
  EnvironmentSettingsPatch,
  getEnvironmentSettings,
  updateEnvironmentSettings,
} from "@/lib/environments/environment-settings";

// GET /api/v1/environment/settings — the environment's retry schedule and the one endpoints follow
export const GET = route({ auth: "operator" }, ({ scope }) => getEnvironmentSettings(scope));

// PATCH /api/v1/environment/settings — set the environment's retry schedule (null: the platform default)
export const PATCH = route({ auth: "operator", write: true, body: EnvironmentSettingsPatch }, ({ scope, body }) =>
  updateEnvironmentSettings(scope, body),
);
