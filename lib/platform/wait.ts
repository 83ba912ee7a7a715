/**
 * Waiting for something, for a while at most.
 *
 * @module
 */

/** Resolves once `promise` settles (either way) or `ms` pass, whichever comes first. */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  try {
    await Promise.race([promise.then(() => {}, () => {}), late]);
  } finally {
    clearTimeout(timer);
  }
}
