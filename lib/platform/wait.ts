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

/**
 * The value of `promise`, or `"late"` when `ms` pass first; a value that
 * comes later goes to `late` (to close a connection it opened, say).
 */
export async function valueWithin<T>(
  promise: Promise<T>,
  ms: number,
  late: (value: T) => void = () => {},
): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), ms));
  try {
    const first = await Promise.race([promise, timeUp]);
    if (first === "late") promise.then(late, () => {});
    return first;
  } finally {
    clearTimeout(timer);
  }
}
