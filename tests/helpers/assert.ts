/**
 * Small assertions for tests. Deno's std assertions live on JSR, which our
 * build machines cannot reach.
 *
 * @module
 */

/** An assertion that did not hold. */
export class AssertionError extends Error {
  /** Makes the error. */
  constructor(message: string) {
    super(message);
    this.name = "AssertionError";
  }
}

/** Throws unless `condition` is truthy. */
export function assert(condition: unknown, message = "Assertion failed"): asserts condition {
  if (!condition) throw new AssertionError(message);
}

function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((v, i) => v === b[i]);
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Throws unless `actual` deeply equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  if (!equal(actual, expected)) {
    throw new AssertionError(
      `${message ? message + ": " : ""}values differ\n  actual:   ${show(actual)}\n  expected: ${
        show(expected)
      }`,
    );
  }
}

/** Throws if `actual` deeply equals `expected`. */
export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  if (equal(actual, expected)) {
    throw new AssertionError(`${message ? message + ": " : ""}values are equal: ${show(actual)}`);
  }
}

/** Throws unless `text` matches `pattern`. */
export function assertMatch(text: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(text)) {
    throw new AssertionError(
      `${message ? message + ": " : ""}${show(text)} does not match ${pattern}`,
    );
  }
}

/**
 * Throws unless `fn` throws (or rejects) an error whose message matches
 * `expected` when it is a pattern, or that is an instance of `expected` when
 * it is an error class.
 */
export async function assertRejects(
  fn: () => unknown | Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  expected?: RegExp | (new (...args: any[]) => Error),
): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    const e = error as Error;
    if (expected instanceof RegExp && !expected.test(e.message)) {
      throw new AssertionError(`error ${show(e.message)} does not match ${expected}`);
    }
    if (typeof expected === "function" && !(error instanceof expected)) {
      throw new AssertionError(`error ${show(String(error))} is not a ${expected.name}`);
    }
    return e;
  }
  throw new AssertionError("expected an error, but none was thrown");
}

/** Throws unless `fn` throws synchronously an error whose message matches `pattern`. */
export function assertThrows(fn: () => unknown, pattern?: RegExp): Error {
  try {
    fn();
  } catch (error) {
    const e = error as Error;
    if (pattern && !pattern.test(e.message)) {
      throw new AssertionError(`error ${show(e.message)} does not match ${pattern}`);
    }
    return e;
  }
  throw new AssertionError("expected an error, but none was thrown");
}
