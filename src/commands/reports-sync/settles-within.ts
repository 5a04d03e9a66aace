// reports sync commits the windows it has loaded when the next window's answer keeps it
// waiting (reports-sync.ts, docs/reports-sync.md): this says whether the answer came in time.

/** Whether `promise` settles (either way) within `ms`; the timer never holds the process open. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
