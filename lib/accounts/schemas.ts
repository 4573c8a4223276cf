import { z } from "zod";

export const OperatorMemberIn = z.object({
  email: z.email("must be an email address").max(320),
  role: z.enum(["owner", "admin", "viewer"]),
});
export type OperatorMemberIn = z.infer<typeof OperatorMemberIn>;

export const OperatorRolePatch = z.object({ role: z.enum(["owner", "admin", "viewer"]) });

export const AppMemberIn = z.object({
  email: z.email("must be an email address").max(320),
  role: z.enum(["admin", "viewer"]),
});
export type AppMemberIn = z.infer<typeof AppMemberIn>;

export const MemberEmailParams = z.object({ email: z.email("must be an email address") });
export const AppMemberParams = z.object({ app_id: z.string().min(1), email: z.email("must be an email address") });
