// Coalesces many concurrent single-item calls into few multi-row statements. While fewer than
// `maxConcurrent` batches are running, an item waits only for the current tick; under load the
// items that arrive while all slots are busy are sent together. So an idle system pays one round
// trip per item and a busy one pays one per batch.

export type Batcher<I, O> = {
  (item: I): Promise<O>;
  /** Resolves when every item handed in so far has been processed. */
  drain(): Promise<void>;
};

type Pending<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  opts: { maxBatch: number; maxConcurrent: number },
): Batcher<I, O> {
  let queue: Pending<I, O>[] = [];
  let running = 0;
  let scheduled = false;
  const idle: (() => void)[] = [];

  function pump() {
    scheduled = false;
    while (queue.length > 0 && running < opts.maxConcurrent) {
      const batch = queue.slice(0, opts.maxBatch);
      queue = queue.slice(batch.length);
      running++;
      run(batch.map((p) => p.item))
        .then(
          (out) => batch.forEach((p, i) => p.resolve(out[i] as O)),
          (err: unknown) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          running--;
          if (queue.length > 0) schedule();
          else if (running === 0) idle.splice(0).forEach((f) => f());
        });
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  }

  const batcher = ((item: I) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    })) as Batcher<I, O>;
  batcher.drain = () => (queue.length === 0 && running === 0 ? Promise.resolve() : new Promise((r) => idle.push(r)));
  return batcher;
}
