import type { Metadata } from "next";
import { Suspense } from "react";
import { Spinner } from "@/components/ui/notice";
import { ApplicationsView } from "./applications-view";

export const metadata: Metadata = { title: "Applications" };

export default function ApplicationsPage() {
  return (
    <Suspense fallback={<Spinner label="Loading applications" />}>
      <ApplicationsView />
    </Suspense>
  );
}
