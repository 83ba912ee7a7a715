/**
 * The dashboard's loop: it holds the terminal, lists the workspace, follows
 * skiffd's numbered events (through reloads and restarts, keeping the
 * selection), follows the selected pane's screen, reads keys, and draws a
 * frame only when something shown changed, at most one per
 * {@linkcode FRAME_MS}. Enter hands the terminal to a real attach until
 * the detach key brings it back.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import { clientEnv } from "../client/env.ts";
import { followEvents } from "../client/follow.ts";
import { nextTerminalInput } from "../client/terminal_input.ts";
import { socketPath } from "../config/paths.ts";
import { Exit, SkiffError } from "../errors.ts";
import { foldEvent } from "../overview/fold.ts";
import { WorkspaceReader } from "../overview/workspace.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/methods.ts";
import type { NewPaneParams, PaneInfo } from "../protocol/panes.ts";
import type { DashActions } from "./actions.ts";
import { handleKey } from "./controls.ts";
import { renderFrame } from "./frame.ts";
import { previewPane } from "./list_box.ts";
import { parseKeys } from "./keys.ts";
import { type Layout, layout } from "./layout.ts";
import type { LedgerFollow } from "./ledger_follow.ts";
import type { HostsFollow } from "../overview/hosts.ts";
import { Painter } from "./painter.ts";
import { PanePreview, preloadScreen } from "./preview.ts";
import { type DashState, initialState, selectFirstPane } from "./state.ts";
import { TerminalHold, terminalSize, writeTerminal } from "./terminal.ts";
import { agoChangesIn } from "./text.ts";

/** The shortest time between two frames (ms): about 60 a second at most. */
export const FRAME_MS = 16;

/** How long to look for skiffd again after it went away (a restart takes a few seconds). */
const RECONNECT_MS = 15_000;

/** The key that throws an uncaught error (`SKIFF_FAULT_DASH_ERROR`, for tests). */
const FAULT_KEY = Deno.env.get("SKIFF_FAULT_DASH_ERROR");

/** Events after which a task's shown state may change (interrupted, gone). */
const LEDGER_EVENTS = new Set(["exit", "gone", "pane-restored", "resync"]);

/** Options for {@linkcode runDashboard}. */
export interface DashOptions {
  /** skiffd's socket; by default the configured one. */
  socket?: string;
}

/** How the dashboard ended: an exit code and, maybe, one line to print. */
export interface DashOutcome {
  /** The exit code. */
  code: number;
  /** A line for the person, printed after the terminal is given back. */
  line?: string;
}

class Dashboard implements DashActions {
  readonly state: DashState = initialState();
  readonly #socket: string;
  readonly #hold = new TerminalHold();
  readonly #painter = new Painter(writeTerminal);
  readonly #reader = new WorkspaceReader();
  readonly #preview: PanePreview;
  /** The ledger's follower, once loaded (after the first frame). */
  #ledger: LedgerFollow | undefined;
  /** The other hosts' panes, followed once the first frame is drawn. */
  #hosts: HostsFollow | undefined;
  #layout: Layout;
  #client: DaemonClient | undefined;
  #attached = false;
  #ended = false;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  #ageTimer: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = 0;
  #listing: Promise<void> | undefined;
  #listAgain = false;
  #agents: string[] | undefined;
  readonly #stopReading = new AbortController();
  #ledgerLoading: Promise<void> | undefined;
  #finish: (outcome: DashOutcome) => void = () => {};
  readonly finished: Promise<DashOutcome>;

  constructor(socket: string, client: DaemonClient) {
    this.#socket = socket;
    this.#client = client;
    const size = terminalSize();
    this.#layout = layout(size.cols, size.rows);
    this.#preview = new PanePreview({ socket, changed: () => this.#drawSoon() });
    this.finished = new Promise((resolve) => this.#finish = resolve);
  }

  /** Takes the terminal and runs until the person quits or skiffd stops for good. */
  async run(): Promise<DashOutcome> {
    this.#hold.take();
    const onResize = () => this.#resized();
    const onSignal = () => this.end({ code: Exit.OK });
    Deno.addSignalListener("SIGWINCH", onResize);
    for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
      Deno.addSignalListener(signal, onSignal);
    }
    try {
      this.#draw();
      // The first listing goes at once, on the connection already open; the event stream's
      // own listing (once subscribed) follows it, so nothing between the two is missed.
      this.relist();
      this.#follow();
      this.#readKeys();
      return await this.finished;
    } finally {
      Deno.removeSignalListener("SIGWINCH", onResize);
      for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
        Deno.removeSignalListener(signal, onSignal);
      }
      this.close();
    }
  }

  /** Ends the dashboard with `outcome`. */
  end(outcome: DashOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish(outcome);
  }

  /** Gives the terminal back and lets go of everything. */
  close(): void {
    this.#ended = true;
    this.#stopReading.abort();
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#ageTimer);
    this.#preview.close();
    this.#ledger?.close();
    this.#hosts?.close();
    this.#client?.close();
    this.#hold.giveBack();
  }

  #resized(): void {
    const size = terminalSize();
    this.#layout = layout(size.cols, size.rows);
    this.#painter.invalidate();
    if (!this.#attached) writeTerminal("\x1b[2J");
    this.#draw();
  }

  // ---- Drawing.

  /** Draws a frame now. */
  #draw(): void {
    clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
    if (this.#attached || this.#ended) return;
    this.state.now = Date.now();
    const frame = renderFrame(this.state, this.#layout, {
      lines: (width, height) => this.#preview.lines(width, height),
      problem: this.#preview.problem,
    });
    this.#painter.paint(frame);
    this.#lastFrame = performance.now();
    // The selection may have moved (its pane went): the preview follows it.
    this.#preview.follow(previewPane(this.state));
    this.#ages();
  }

  /** Draws a frame soon: at once when the last one is old enough, else when it is. */
  #drawSoon(): void {
    if (this.#frameTimer !== undefined || this.#attached || this.#ended) return;
    const wait = Math.max(0, this.#lastFrame + FRAME_MS - performance.now());
    this.#frameTimer = setTimeout(() => this.#draw(), wait);
  }

  /** Draws again when the age of a state ("12s", "5m") would read differently. */
  #ages(): void {
    clearTimeout(this.#ageTimer);
    const panes = this.state.view?.panes ?? [];
    if (panes.length === 0 || this.state.mode !== "list") return;
    let next = Infinity;
    for (const pane of panes) next = Math.min(next, agoChangesIn(pane.state_since, this.state.now));
    if (next === Infinity) return;
    this.#ageTimer = setTimeout(() => this.#drawSoon(), Math.max(50, next));
  }

  // ---- skiffd.

  async #requests(): Promise<DaemonClient> {
    if (!this.#client || this.#client.closed) {
      this.#client = await connectDaemon({ socket: this.#socket, start: false });
    }
    return this.#client;
  }

  /** Asks skiffd; a request about a pane of another host (`HOST:ID`) goes to that host's. */
  async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const ref = (params as { pane?: unknown }).pane;
    if (typeof ref === "string" && ref.includes(":")) {
      const { withPane } = await import("../hosts/resolve.ts");
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
    const client = await this.#requests();
    return await (client.call as (m: M, p: ParamsOf<M>) => Promise<ResultOf<M>>)(method, params);
  }

  /** Follows the other hosts of projects.toml, each a group of the list. */
  async #followHosts(): Promise<void> {
    const { HostsFollow } = await import("../overview/hosts.ts");
    if (this.#ended) return;
    this.#hosts = new HostsFollow({
      changed: () => {
        if (!this.state.view || !this.#hosts) return;
        this.state.view.hosts = this.#hosts.hosts();
        this.#drawSoon();
      },
    });
    if (this.state.view) this.state.view.hosts = this.#hosts.hosts();
  }

  /** Lists the workspace again; one listing at a time, and one more if asked meanwhile. */
  relist(): Promise<void> {
    if (this.#listing) {
      this.#listAgain = true;
      return this.#listing;
    }
    this.#listing = (async () => {
      do {
        this.#listAgain = false;
        try {
          const first = this.state.view === undefined;
          this.state.view = await this.#reader.read(await this.#requests());
          if (this.#hosts) {
            this.#hosts.sync();
            this.state.view.hosts = this.#hosts.hosts();
          }
          if (first) {
            selectFirstPane(this.state);
            // What the first frame does not need loads after it.
            setTimeout(() => {
              preloadScreen();
              this.#readAgents();
              this.#followHosts();
            }, 0);
          }
          // Which tasks show interrupted or gone depends on the panes just listed.
          this.readLedger();
          this.#preview.retry();
          this.#drawSoon();
        } catch {
          // skiffd went: the events follower lists again once it is back.
        }
      } while (this.#listAgain && !this.#ended);
      this.#listing = undefined;
    })();
    return this.#listing;
  }

  async #follow(): Promise<void> {
    try {
      for await (
        const event of followEvents({
          socket: this.#socket,
          reconnectMs: RECONNECT_MS,
          start: false,
          subscribed: () => {
            this.state.link = "live";
            this.relist();
          },
        })
      ) {
        if (this.#ended) return;
        if (event.event === "daemon-stopping") {
          if (!event.returning) {
            return this.end({ code: Exit.DAEMON, line: "skiffd was stopped; the dashboard ends" });
          }
          this.state.link = "reconnecting";
          this.#drawSoon();
          continue;
        }
        const view = this.state.view;
        if (!view) continue;
        const outcome = foldEvent(view, event);
        if (outcome === "relist") this.relist();
        else if (outcome === "changed") this.#drawSoon();
        if (LEDGER_EVENTS.has(event.event)) this.readLedger();
      }
    } catch (error) {
      if (this.#ended) return;
      const message = error instanceof SkiffError
        ? error.message
        : `Lost skiffd: ${(error as Error).message}`;
      this.end({ code: Exit.DAEMON, line: message });
    }
  }

  // ---- Keys.

  async #readKeys(): Promise<void> {
    const decoder = new TextDecoder();
    while (!this.#ended) {
      // One reader for the whole process: keys typed as an attach ends are not lost.
      const chunk = await nextTerminalInput({ signal: this.#stopReading.signal });
      if (this.#ended || chunk === undefined) return;
      // The terminal went away (a dropped SSH link): end as on SIGHUP.
      if (chunk === null) return this.end({ code: Exit.OK });
      for (const key of parseKeys(decoder.decode(chunk, { stream: true }))) {
        if (key.name === "char" && key.char === FAULT_KEY) {
          // A fault switch for tests: an error nobody catches, thrown outside any handler.
          setTimeout(() => {
            throw new Error("SKIFF_FAULT_DASH_ERROR: an uncaught error, as asked");
          }, 0);
        }
        await handleKey(this, key);
        if (this.#ended) return;
        this.#draw();
      }
    }
  }

  // ---- Actions.

  /** Opens `pane` full screen; the detach key comes back here. */
  async open(pane: string): Promise<void> {
    this.#attached = true;
    this.#preview.close();
    // The attached program sets its own modes; ours are undone first.
    writeTerminal("\x1b[?2004l\x1b[?7h\x1b[?25h\x1b[0m");
    try {
      // The dashboard holds the alternate screen already: the pane is drawn on it. A pane of
      // another host (HOST:ID) is attached through its link.
      const { attachPane } = await import("../hosts/attach.ts");
      const outcome = await attachPane(pane, { alternateScreen: false, socket: this.#socket });
      const label = `${outcome.name} (${outcome.pane})`;
      const lines: Record<string, string> = {
        exited: `${label} exited`,
        killed: `${label} was killed`,
        gone: `${label} is gone`,
        lost: outcome.host === null ? "Lost skiffd while attached" : outcome.line,
      };
      this.state.status = lines[outcome.reason]
        ? { text: lines[outcome.reason], tone: "info" }
        : null;
    } catch (error) {
      this.state.status = { text: (error as Error).message, tone: "error" };
    } finally {
      this.#attached = false;
      this.#hold.take();
      this.#painter.invalidate();
      this.relist();
    }
  }

  /** Opens the Skiff agent, as `skiff skipper` does. */
  async openAgent(): Promise<void> {
    let opened;
    try {
      const { openSkiffAgent } = await import("../skipper/open.ts");
      opened = await openSkiffAgent({ client: await this.#requests() });
    } catch (error) {
      this.state.status = { text: `S: ${(error as Error).message}`, tone: "error" };
      return;
    }
    this.state.selected = "agent";
    await this.open(opened.pane.id);
  }

  /** Makes a pane as `skiff new` does. */
  async newPane(answers: Record<string, string>): Promise<PaneInfo> {
    const project = answers.project || undefined;
    const agent = answers.agent || undefined;
    const params: NewPaneParams = {
      project,
      name: answers.name || agent,
      client_env: clientEnv(),
    };
    if (agent) {
      const { agentLaunchFor } = await import("../agents/launch.ts");
      const launch = agentLaunchFor(agent);
      params.command = launch.command;
      params.env = launch.env;
    }
    // Without a project, a pane starts where the dashboard was started, as with 'skiff new'.
    if (!project) params.cwd = Deno.cwd();
    return await this.call("pane.new", params);
  }

  /** Reads the ledger again. */
  readLedger(): void {
    // The ledger's code (SQLite) loads after the first frame, not before it.
    if (this.#ledger) return this.#ledger.read();
    this.#ledgerLoading ??= import("./ledger_follow.ts").then(({ LedgerFollow }) => {
      if (this.#ended) return;
      this.#ledger = new LedgerFollow({
        panes: () => this.state.view?.panes ?? [],
        changed: (ledger) => {
          this.state.ledger = ledger;
          this.#drawSoon();
        },
      });
    });
    this.#ledgerLoading.then(() => this.#ledger?.read());
  }

  /** Reads a result file. */
  async readResult(path: string): Promise<string> {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw new Error(`${path} is not written yet`);
      throw error;
    }
  }

  /** Ends the dashboard as the person asked. */
  quit(): void {
    this.end({ code: Exit.OK });
  }

  /** The projects and agents a new pane may have (the agents once read: see `#readAgents`). */
  choices(): { projects: string[]; agents: string[] } {
    return {
      projects: this.state.view?.projects.map((p) => p.name) ?? [],
      agents: this.#agents ?? [],
    };
  }

  /** Reads the known agents' ids (for the new-pane prompt) and the detach key, after the first frame. */
  async #readAgents(): Promise<void> {
    try {
      const { loadConfig } = await import("../config/config.ts");
      const { AgentRegistry } = await import("../agents/registry.ts");
      const { describeKey } = await import("../config/attach_keys.ts");
      const config = loadConfig();
      this.#agents = new AgentRegistry({ document: config.document, file: config.file })
        .profiles.map((p) => p.id);
      this.state.detachKey = describeKey(config.attach.detach);
    } catch {
      this.#agents = [];
    }
  }
}

/**
 * Runs the dashboard in this terminal until the person quits (exit 0) or
 * skiffd stops for good (exit `DAEMON`, with a line saying so). Starts
 * skiffd when none runs. The terminal is given back on every way out.
 */
export async function runDashboard(options: DashOptions = {}): Promise<DashOutcome> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new SkiffError("skiff dash needs a terminal on stdin and stdout", { exit: "USAGE" });
  }
  const socket = options.socket ?? socketPath();
  const client = await connectDaemon({ socket });
  const dashboard = new Dashboard(socket, client);
  // An error nobody caught still gives the terminal back before the program ends.
  const onError = () => dashboard.close();
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onError);
  try {
    return await dashboard.run();
  } finally {
    globalThis.removeEventListener("error", onError);
    globalThis.removeEventListener("unhandledrejection", onError);
  }
}
