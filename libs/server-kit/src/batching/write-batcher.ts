import DataLoader from 'dataloader';

export interface WriteBatcherOptions {
  /** at most this many items per write; default 500 */
  maxBatchSize?: number;
}

/**
 * Writes that callers ask for one at a time, made together (group commit): what is asked while a write is
 * under way joins the next one, so under load many callers share one statement, and a caller alone waits
 * only for the current turn of the event loop. Each caller's promise settles with the write that carried its
 * item: resolved once it is done, rejected with its error (every item of a failed write fails).
 */
export function writeBatcher<T>(write: (items: readonly T[]) => Promise<void>, opts: WriteBatcherOptions = {}): (item: T) => Promise<void> {
  let current: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<T, void>(
    (items) => {
      const done = write(items).then(() => items.map(() => undefined));
      current = done.catch(() => undefined);
      return done;
    },
    {
      cache: false,
      maxBatchSize: opts.maxBatchSize ?? 500,
      // a batch goes once the one under way is done; what comes meanwhile joins it
      batchScheduleFn: (dispatch) => void current.then(() => setImmediate(dispatch)),
    },
  );
  return (item) => loader.load(item);
}
