import { noContent, route } from "@/lib/http/route";

// GET /api/v1/health/ping — liveness: the web process is up
export const GET = route({ auth: "public" }, () => Promise.resolve(noContent));
