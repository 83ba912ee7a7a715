/**
 * The dashboard's requests to skiffd: one connection, opened again after
 * skiffd restarted; a request about a pane of another host (`HOST:ID`)
 * goes to that host's skiffd through its link.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import { clientEnv } from "../client/env.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import type { NewPaneParams, PaneInfo } from "../protocol/panes.ts";
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
   * Makes a pane as `skiff new` does: project, agent, worktree and name as
   * typed (empty: none). A pane in a worktree is named after it unless named.
   */
  async newPane(answers: Record<string, string>): Promise<PaneInfo> {
    const project = answers.project || undefined;
    const agent = answers.agent || undefined;
    const worktree = answers.worktree || undefined;
    const params: NewPaneParams = {
      project,
      name: answers.name || (worktree === undefined ? agent : undefined),
      client_env: clientEnv(),
      ...(worktree === undefined ? {} : { worktree: { name: worktree } }),
    };
    if (agent) {
      const { agentLaunchFor } = await importLater<typeof import("../agents/launch.ts")>(
        "lib/agents/launch.ts",
      );
      const launch = agentLaunchFor(agent);
      params.command = launch.command;
      params.env = launch.env;
    }
    // Without a project, a pane starts where the dashboard was started, as with 'skiff new'.
    if (!project) params.cwd = Deno.cwd();
    return await this.call("pane.new", params);
  }

  /** Closes the connection. */
  close(): void {
    this.#client?.close();
  }
}
