// What the sign-in pages say for next-auth's ?error= codes (and the messages our providers throw).

const MESSAGES: Record<string, string> = {
  Verification: "This sign-in link has expired or was already used. Ask for a new one below.",
  AccessDenied: "This account has no access to Herald. Ask an administrator to invite you.",
  EmailSignin: "The sign-in email could not be sent. Try again, or sign in with your password.",
  OAuthSignin: "Single sign-on could not start. Try again, or ask your administrator.",
  OAuthCallback: "Single sign-on did not complete. Try again, or ask your administrator.",
  EmailUnverified: "Your single sign-on provider has not verified this email address, so Herald cannot sign you in with it. Verify it there, or sign in another way.",
  OAuthAccountNotLinked: "This account is linked to another sign-in method.",
  CredentialsSignin: "Wrong email or password.",
  SessionRequired: "Sign in to continue.",
};

// Without email there is no "new one below" to ask for: a new link comes only from whoever invited them.
const VERIFICATION_WITHOUT_MAIL =
  "This sign-in link has expired or was already used. This server does not send email, so ask whoever invited you (an owner or admin) for a new invitation.";

/** `mail`: whether this server sends email (mailConfigured()), i.e. whether the page offers an email link. */
export function signInMessage(code: string | undefined | null, { mail = true }: { mail?: boolean } = {}): string | null {
  if (!code) return null;
  if (code === "Verification" && !mail) return VERIFICATION_WITHOUT_MAIL;
  // Errors thrown by our own authorize() arrive as their message (one line, our words).
  return MESSAGES[code] ?? (code.length < 200 && /[a-z]\.$/.test(code) ? code : "Sign-in failed. Try again.");
}

/** Only same-site paths: a callbackUrl is never a way to send someone elsewhere. */
export function safeCallbackPath(raw: string | string[] | undefined, fallback: string): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return fallback;
  try {
    // Whatever the value, keep only its path on this site.
    const url = new URL(value, "http://herald.invalid");
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
  } catch {
    return fallback;
  }
}
