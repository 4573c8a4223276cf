import { db } from "../../db";
import { newId } from "../../ids";
import { copyMessagesSql } from "../../messages/fan-out-message";
import { countReplay, replayCandidates, type ReplayFilter } from "../replay/replay-filter";
import { cancelReplayAfterLastBatch } from "../replay/replay-deliveries";
import type { TaskKindRunner } from "../task-context";

// replay: each batch ingests the next messages of the filter again as NEW messages (new ids,
// replay_of_id = the original) with one pending delivery per target endpoint: the fan-out's copy
// statement (payloads never travel through the worker), in the same transaction as the cursor.
// Cancelling stops the batches and cancels the copies' deliveries not attempted yet.

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

    const fanOut = copyMessagesSql(
      batch.map((c) => ({ id: newId("message"), sourceId: c.id, endpointIds: c.endpoint_ids })),
      ctx.task.id,
      f.endpointId,
    );
    const created = await ctx.commit(
      async (tx) => {
        const [n] = await tx.$queryRawUnsafe<{ messages: number; deliveries: number }[]>(fanOut.text, ...fanOut.values);
        return n ?? { messages: 0, deliveries: 0 };
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
    let toSend = fanOut.deliveryIds;
    if (created.deliveries !== toSend.length) {
      // A source was expunged between the read and the copy: only enqueue what was created.
      const rows = await db.delivery.findMany({ where: { id: { in: toSend } }, select: { id: true } });
      toSend = rows.map((r) => r.id);
    }
    await ctx.deliveries.send(toSend);
    return "more";
  },

  cancelled: cancelReplayAfterLastBatch,
};
