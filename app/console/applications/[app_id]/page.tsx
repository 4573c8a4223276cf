import type { Metadata } from "next";
import { Suspense } from "react";
import { Spinner } from "@/components/ui/notice";
import { ApplicationView } from "./application-view";

export const metadata: Metadata = { title: "Application" };

export default async function ApplicationPage({ params }: { params: Promise<{ app_id: string }> }) {
  const { app_id } = await params;
  return (
    <Suspense fallback={<Spinner label="Loading the application" />}>
      <ApplicationView appId={app_id} />
    </Suspense>
  );
}
