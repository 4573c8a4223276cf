import { z } from "zod";

export const taskParams = z.object({
  task_id: z.string().regex(/^qtask_[0-9a-z]{26}$/, "is not a task id (qtask_ and 26 lowercase letters and digits, as a 202 returned it)"),
});
