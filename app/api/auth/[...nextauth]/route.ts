import NextAuth from "next-auth";
import { authOptions } from "@/lib/accounts/auth-options";

// next-auth's routes: /api/auth/signin, callback/*, session, csrf, signout, providers.
// (Not Herald's API: no route() builder, no OpenAPI entry; see lib/accounts/auth-options.ts.)
type Ctx = { params: Promise<{ nextauth: string[] }> };
const handler = (req: Request, ctx: Ctx) => NextAuth(req as never, ctx as never, authOptions()) as Promise<Response>;

export { handler as GET, handler as POST };
