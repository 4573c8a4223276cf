import { Notice } from "@/components/ui/notice";

// next-auth's verify-request page (pages.verifyRequest), shown when a link was asked for without JavaScript.
export default function CheckEmail() {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6 py-12">
      <Notice tone="success" title="Check your email">
        If the address has an account, a sign-in link is on its way. It works once, within 15 minutes.
      </Notice>
    </main>
  );
}
