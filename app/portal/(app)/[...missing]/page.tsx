import { notFound } from "next/navigation";

// Any /portal/… address that is not a portal page: the portal's own 404 (../not-found.tsx),
// inside the shell, instead of the site's bare one.
export default function MissingPortalPage() {
  notFound();
}
