import type { Metadata } from "next";
import { OperationalWebhooksView } from "./operational-webhooks-view";

export const metadata: Metadata = { title: "Operational webhooks" };

export default function OperationalWebhooksPage() {
  return <OperationalWebhooksView />;
}
