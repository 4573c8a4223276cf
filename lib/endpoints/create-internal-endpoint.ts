import { db } from "../db";
import { newId } from "../ids";
import type { Prisma } from "../generated/prisma/client";
import { captureUrl, listenUrl } from "../delivery/transports/endpoint-kind";
import { newSigningKey } from "./endpoint-secrets";

// Endpoints whose URL Herald writes itself: test URLs (herald-capture:) and `herald listen`
// endpoints (herald-listen:). They are ordinary endpoints in every other way (filters, secret,
// retry schedule, state, attempts); the API's URL check, which admits only http(s), is not for them.

export type InternalEndpointIn = {
  environmentId: string;
  applicationId: string;
  uid?: string | null;
  description: string;
  eventTypes?: string[];
  channels?: string[];
};

export async function createInternalEndpoint(
  kind: "capture" | "listen",
  input: InternalEndpointIn,
  tx: Prisma.TransactionClient = db,
) {
  const id = newId("endpoint");
  const key = newSigningKey("hmac_sha256");
  return tx.endpoint.create({
    data: {
      id,
      environmentId: input.environmentId,
      applicationId: input.applicationId,
      uid: input.uid ?? null,
      url: kind === "capture" ? captureUrl(id) : listenUrl(id),
      description: input.description,
      eventTypes: input.eventTypes ?? [],
      channels: input.channels ?? [],
      signingAlgorithm: "hmac_sha256",
      secretEncrypted: key.secretEncrypted,
    },
  });
}
