import { db } from "../../db";
import { newId } from "../../ids";
import { countReplay, replayCandidates, type ReplayFilter } from "../replay/replay-filter";
import type { TaskKindRunner } from "../task-context";

// replay: each batch ingests the next messages of the filter again as NEW messages (new ids,
// replay_of_id = the original) with one pending delivery per target endpoint. The copies are made
// in SQL (payloads never travel through the worker) in the same transaction as the cursor.

export const replay: TaskKindRunner = {
  async total(task) {
    return (await countReplay(task.params as ReplayFilter)).messages;
  },

  async step(ctx) {
    const f = ctx.task.params as ReplayFilter;
    await ctx.deliveries.waitForRoom();
    if (ctx.interrupted()) return "more"; // the runner ends or pauses the task
    const batch = await replayCandidates(f, ctx.progress().cursor, ctx.opts.batchSize);
    const last = batch[batch.length - 1];
    if (!last) return "done";

    const sources = batch.map((c) => c.id);
    const copies = batch.map(() => newId("message"));
    const deliveryIds: string[] = [];
    const deliveryEndpoints: string[] = [];
    const deliveryMessages: string[] = [];
    batch.forEach((c, i) => {
      for (const ep of c.endpoint_ids) {
        deliveryIds.push(newId("delivery"));
        deliveryEndpoints.push(ep);
        deliveryMessages.push(copies[i]!);
      }
    });

    const created = await ctx.commit(
      async (tx) => {
        const messages = await tx.$executeRaw`
          INSERT INTO message (id, environment_id, application_id, event_type, event_id, payload, previous, channels,
                               payload_retention_days, replay_of_id, created_at)
          SELECT n.id, m.environment_id, m.application_id, m.event_type, NULL, m.payload, m.previous, m.channels,
                 m.payload_retention_days, m.id, now()
          FROM unnest(${copies}::text[], ${sources}::text[]) AS n(id, src)
          JOIN message m ON m.id = n.src
          WHERE m.payload IS NOT NULL`;
        const deliveries = await tx.$executeRaw`
          INSERT INTO delivery (id, environment_id, application_id, endpoint_id, message_id, event_type, status,
                                next_attempt_at, created_at, updated_at)
          SELECT x.id, m.environment_id, m.application_id, x.endpoint_id, x.message_id, m.event_type, 'pending', now(), now(), now()
          FROM unnest(${deliveryIds}::text[], ${deliveryEndpoints}::text[], ${deliveryMessages}::text[]) AS x(id, endpoint_id, message_id)
          JOIN message m ON m.id = x.message_id`;
        return { messages, deliveries };
      },
      (n, before) => ({
        cursor: last.id,
        added: batch.length,
        result: {
          messages: (before.result.messages ?? 0) + n.messages,
          deliveries: (before.result.deliveries ?? 0) + n.deliveries,
        },
      }),
    );
    // Committed first, then enqueued: a crash in between leaves due pending deliveries that the
    // delivery engine's sweeper enqueues.
    let toSend = deliveryIds;
    if (created.deliveries !== deliveryIds.length) {
      // A source was expunged between the read and the copy: only enqueue what was created.
      const rows = await db.delivery.findMany({ where: { id: { in: deliveryIds } }, select: { id: true } });
      toSend = rows.map((r) => r.id);
    }
    await ctx.deliveries.send(toSend);
    return "more";
  },
};
