/** Settles once `work` has (resolved or failed), or after `ms`, whichever comes first; never rejects. */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  const done = work.then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([done, late]).finally(() => clearTimeout(timer));
}
