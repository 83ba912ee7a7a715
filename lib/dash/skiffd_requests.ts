/**
 * The dashboard's requests to skiffd: one connection, opened again after
 * skiffd restarted; a request about a pane of another host (`HOST:ID`)
 * goes to that host's skiffd through its link.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import { importLater } from "../platform/later.ts";

/** Asks skiffd (or another host's) for the dashboard. */
export class SkiffdRequests {
  readonly #socket: string;
  #client: DaemonClient | undefined;

  /** Asks the skiffd at `socket`, on `client` while it stays open. */
  constructor(socket: string, client: DaemonClient) {
    this.#socket = socket;
    this.#client = client;
  }

  /** The connection to this machine's skiffd while it is open, at once; else undefined. */
  open(): DaemonClient | undefined {
    return this.#client && !this.#client.closed ? this.#client : undefined;
  }

  /** This machine's skiffd, connected again if the connection closed. */
  async client(): Promise<DaemonClient> {
    if (!this.#client || this.#client.closed) {
      this.#client = await connectDaemon({ socket: this.#socket, start: false });
    }
    return this.#client;
  }

  /** Asks skiffd; a request about a pane of another host (`HOST:ID`) goes to that host's. */
  async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const ref = (params as { pane?: unknown }).pane;
    if (typeof ref === "string" && ref.includes(":")) {
      const { withPane } = await importLater<typeof import("../hosts/resolve.ts")>(
        "lib/hosts/resolve.ts",
      );
      return await withPane(
        ref,
        (client, pane) =>
          (client.call as (m: M, p: ParamsOf<M>) => Promise<ResultOf<M>>)(method, {
            ...params,
            pane,
          }),
        { start: false },
      );
    }
    const client = await this.client();
    return await (client.call as (m: M, p: ParamsOf<M>) => Promise<ResultOf<M>>)(method, params);
  }

  /**
   * Makes a pane as `skiff new` does, through the same operation
   * (`lib/ops/new_pane.ts`, loaded when a pane is made, never for the first
   * frame) on this connection: project, agent, worktree and name as typed
   * (empty: none). An agent is launched with Skiff's hooks and a
   * conversation of its own, resumed after a restart as `skiff new`'s is.
   */
  async newPane(answers: Record<string, string>): Promise<PaneInfo> {
    const { newPane } = await importLater<typeof import("../ops/new_pane.ts")>(
      "lib/ops/new_pane.ts",
    );
    const made = await newPane({
      project: answers.project || undefined,
      agent: answers.agent || undefined,
      worktree: answers.worktree || undefined,
      name: answers.name || undefined,
      access: {
        open: async (host) => {
          // The prompt names no host: the pane is this machine's.
          if (host !== null) throw new Error(`the dashboard starts no pane on ${host}`);
          return { client: await this.client(), release: () => {} };
        },
      },
    });
    return made.pane;
  }

  /** Closes the connection. */
  close(): void {
    this.#client?.close();
  }
}
