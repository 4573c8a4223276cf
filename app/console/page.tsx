import type { Metadata } from "next";
import { OverviewView } from "./overview-view";

// The layout's title template applies to child segments only, so this page spells it out.
export const metadata: Metadata = { title: { absolute: "Overview · Herald console" } };

export default function OverviewPage() {
  return <OverviewView />;
}
