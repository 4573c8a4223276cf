// Coalesces many concurrent single-item calls into few multi-row statements. The first item of
// a batch waits `windowMs` for others (or until `maxBatch` are there); while `maxConcurrent`
// batches are running, new items keep collecting. So an idle system pays a round trip plus a
// millisecond or two per item, and a busy one one round trip per batch — which is what keeps the
// database's and the worker's CPU per delivery low.

export type Batcher<I, O> = {
  (item: I): Promise<O>;
  /** Resolves when every item handed in so far has been processed. */
  drain(): Promise<void>;
};

type Pending<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  opts: { maxBatch: number; maxConcurrent: number; windowMs: number },
): Batcher<I, O> {
  let queue: Pending<I, O>[] = [];
  let running = 0;
  let timer: NodeJS.Timeout | null = null;
  const idle: (() => void)[] = [];

  function flush() {
    timer = null;
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
    if (queue.length >= opts.maxBatch && running < opts.maxConcurrent) {
      if (timer) clearTimeout(timer);
      flush();
    } else timer ??= setTimeout(flush, opts.windowMs);
  }

  const batcher = ((item: I) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    })) as Batcher<I, O>;
  batcher.drain = () => (queue.length === 0 && running === 0 ? Promise.resolve() : new Promise((r) => idle.push(r)));
  return batcher;
}
