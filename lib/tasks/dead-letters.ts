import { Prisma } from "../generated/prisma/client";
import { idAtTime } from "../ids";
import type { DeliveryFilter } from "./delivery-filter";

// The dead-lettered deliveries a recover or bulk-retry task re-attempts, selected by keyset on
// the delivery id (time-ordered), so a resumed task continues exactly after its cursor. Both select
// by the delivery filter (recover's is its endpoint and time range).

export function deadLetterWhere(f: DeliveryFilter, after: string | null): Prisma.Sql {
  const conds: Prisma.Sql[] = [
    Prisma.sql`d.application_id = ${f.appId}`,
    Prisma.sql`d.status = 'failed'`,
    Prisma.sql`d.id < ${idAtTime("delivery", new Date(f.until))}`,
  ];
  if (f.endpointId) conds.push(Prisma.sql`d.endpoint_id = ${f.endpointId}`);
  if (f.since) conds.push(Prisma.sql`d.id >= ${idAtTime("delivery", new Date(f.since))}`);
  if (after) conds.push(Prisma.sql`d.id > ${after}`);
  if (f.statusCode === 0) conds.push(Prisma.sql`coalesce(d.last_status_code, 0) = 0`);
  else if (f.statusCode !== null) conds.push(Prisma.sql`d.last_status_code = ${f.statusCode}`);
  if (f.statusCodeClass === 0) conds.push(Prisma.sql`coalesce(d.last_status_code, 0) = 0`);
  else if (f.statusCodeClass !== null)
    conds.push(
      Prisma.sql`d.last_status_code >= ${f.statusCodeClass} AND d.last_status_code < ${f.statusCodeClass + 100}`,
    );
  if (f.eventTypes.length) conds.push(Prisma.sql`d.event_type = ANY(${f.eventTypes}::text[])`);
  return Prisma.join(conds, " AND ");
}
