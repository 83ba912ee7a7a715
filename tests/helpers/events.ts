/**
 * Follows `skiff events --json` in a test: start it, do things, then collect.
 *
 * @module
 */

import { MAIN, type SkiffEnv, waitFor } from "./skiff.ts";

/**
 * Starts `skiff events --json` (its stderr piped or dropped; `args` replace
 * `--json`) and resolves once skiffd counts it as a client, so no event
 * after this is missed.
 */
export async function followEvents(
  skiff: SkiffEnv,
  stderr: "piped" | "null",
  args: string[] = ["--json"],
): Promise<Deno.ChildProcess> {
  const before = (await skiff.json<{ clients: number }>(["daemon", "status"])).clients;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "-q", MAIN, "events", ...args],
    env: skiff.env,
    clearEnv: true,
    stdout: "piped",
    stderr,
  }).spawn();
  // The status call itself is one client; the subscriber is one more.
  await waitFor("the events subscriber", async () => {
    const s = await skiff.json<{ clients: number }>(["daemon", "status"]);
    return s.clients > before;
  });
  return child;
}

/** A running `skiff events --json`. */
export class EventStream {
  readonly #child: Deno.ChildProcess;
  readonly #events: Record<string, unknown>[] = [];
  readonly #done: Promise<void>;
  #wake: (() => void) | undefined;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#done = this.#read();
  }

  /** Starts following and resolves once the subscription is live. */
  static async start(skiff: SkiffEnv): Promise<EventStream> {
    return new EventStream(await followEvents(skiff, "null"));
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of this.#child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        this.#events.push(JSON.parse(buffer.slice(0, newline)));
        buffer = buffer.slice(newline + 1);
        this.#wake?.();
      }
    }
  }

  /** Every event so far. */
  get events(): Record<string, unknown>[] {
    return this.#events;
  }

  /** Waits for an event that matches, returning it. */
  async next(
    match: (event: Record<string, unknown>) => boolean,
    timeout = 20_000,
  ): Promise<Record<string, unknown>> {
    return await waitFor("an event", () => this.#events.find(match), { timeout, interval: 20 });
  }

  /** Stops following. */
  async stop(): Promise<void> {
    try {
      this.#child.kill();
    } catch {
      // Ended already.
    }
    await this.#child.status;
    await this.#done.catch(() => {});
  }
}
