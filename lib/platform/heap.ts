/**
 * Giving memory back once a burst is over.
 *
 * V8 collects its old generation when allocation pressure asks for it, not
 * when a process goes idle, so the garbage of a burst (starting 200 panes, a
 * flood of output) stays resident in an idle skiffd: about 40% of its memory
 * after 200 shells start. A full collection when output has settled returns
 * it.
 *
 * @module
 */

import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null | undefined;

/** Runs a full garbage collection; false when the runtime does not allow it. */
export function collectGarbage(): boolean {
  if (collect === undefined) {
    try {
      // Exposes `gc` to contexts made after this, not to the program's own globals.
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc");
      collect = typeof gc === "function" ? gc as () => void : null;
    } catch {
      collect = null;
    }
  }
  if (!collect) return false;
  collect();
  return true;
}

/** Options for {@linkcode IdleCollector}. */
export interface IdleCollectorOptions {
  /** Collect only when the heap grew by at least this many bytes since the last time. */
  minGrowthBytes?: number;
  /** …and by at least this share of what was live after the last time. */
  minGrowthShare?: number;
  /** At most one collection in this many ms. */
  minIntervalMs?: number;
}

/** Decides when an idle moment is worth a full collection. */
export class IdleCollector {
  readonly #minGrowthBytes: number;
  readonly #minGrowthShare: number;
  readonly #minIntervalMs: number;
  #liveAfter = 0;
  #lastAt = -Infinity;

  /** Makes a collector; nothing is collected until {@linkcode IdleCollector.idle}. */
  constructor(options: IdleCollectorOptions = {}) {
    this.#minGrowthBytes = options.minGrowthBytes ?? 8 << 20;
    this.#minGrowthShare = options.minGrowthShare ?? 0.25;
    this.#minIntervalMs = options.minIntervalMs ?? 10_000;
  }

  /**
   * Call when the process went idle; collects when the heap grew enough.
   * Returns 0 when there is nothing more to do, or, when the last collection
   * was too recent, how many ms to wait before asking again.
   */
  idle(now = performance.now()): number {
    const wait = this.#lastAt + this.#minIntervalMs - now;
    if (wait > 0) return wait;
    const used = Deno.memoryUsage().heapUsed;
    const growth = used - this.#liveAfter;
    if (growth < Math.max(this.#minGrowthBytes, this.#liveAfter * this.#minGrowthShare)) return 0;
    if (!collectGarbage()) return 0;
    this.#lastAt = now;
    this.#liveAfter = Deno.memoryUsage().heapUsed;
    return 0;
  }
}

let mallocTrim: ((pad: bigint) => number) | null | undefined;

/**
 * Gives the C heap's free pages back to the system (glibc's `malloc_trim`).
 * xterm keeps each line of a screen in a typed array, whose memory comes
 * from the C heap; once many screens went to sleep, their lines are free
 * but stay resident, scattered between live ones, until trimmed. Returns
 * false where there is no glibc (another libc, another system).
 */
export function trimCHeap(): boolean {
  if (mallocTrim === undefined) {
    try {
      const lib = Deno.dlopen("libc.so.6", {
        malloc_trim: { parameters: ["usize"], result: "i32" },
      });
      mallocTrim = (pad) => lib.symbols.malloc_trim(pad);
    } catch {
      mallocTrim = null;
    }
  }
  if (!mallocTrim) return false;
  mallocTrim(0n);
  return true;
}
