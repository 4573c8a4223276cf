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

// In paths the email is only a lookup key: anything that is not a member's address is a 404.
const emailKey = z.string().min(1).max(320);
export const MemberEmailParams = z.object({ email: emailKey });
export const AppMemberParams = z.object({ app_id: z.string().min(1), email: emailKey });
