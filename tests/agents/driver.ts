/**
 * Drives a real agent CLI in a private tmux pane: start it against the fake
 * model, wait for its input box, type prompts, and wait for busy, approval and
 * finished turns by matching its screen.
 *
 * @module
 */
import { join } from "node:path";
import { DEFAULT_REPLY } from "../fixtures/fake_llm_server.ts";
import { type AgentLaunch, type AgentName, prepareAgent } from "./agent_env.ts";
import { allPids, shellQuote, TmuxPane } from "./tmux.ts";
import { waitFor } from "../helpers/skiff.ts";

/** Screen markers used to drive one agent (matched on the plain capture). */
export interface AgentScript {
  /** The input box is up and accepts keys. */
  ready: RegExp;
  /** Input box after a turn, when it differs from `ready` (no placeholder). */
  idle?: RegExp;
  /** A turn is running. */
  busy: RegExp;
  /** Busy may also show only in the title (Codex while streaming). */
  busyTitle?: RegExp;
  /** An approval dialog is showing. */
  approval: RegExp;
  /** Key that accepts the approval dialog's first option. */
  approve: string;
  /** Extra wait after `ready` before typing (opencode drops early keys). */
  settleMs: number;
}

/** How each agent is driven. */
export const SCRIPTS: Readonly<Record<AgentName, AgentScript>> = {
  claude: {
    ready: /^❯\s*$[\s\S]*\? for shortcuts/m,
    busy: /esc to interrupt/,
    approval: /Do you want to proceed\?/,
    approve: "Enter",
    settleMs: 1500,
  },
  codex: {
    ready: /^› [\s\S]*\? for shortcuts/m,
    busy: /esc to interrupt/,
    busyTitle: /^[\u2800-\u28ff] /,
    approval: /Would you like to run the following command\?/,
    approve: "y",
    settleMs: 1500,
  },
  gemini: {
    ready: /Type your message/,
    busy: /esc to cancel/,
    approval: /Allow execution of/,
    approve: "Enter",
    settleMs: 1500,
  },
  opencode: {
    ready: /Ask anything/,
    idle: /ctrl\+p commands/,
    busy: /esc interrupt/,
    approval: /Permission required/,
    approve: "Enter",
    settleMs: 4000,
  },
  qwen: {
    ready: /Type your message/,
    busy: /esc to cancel/,
    approval: /Allow execution of/,
    approve: "Enter",
    settleMs: 1500,
  },
  grok: {
    ready: /Ask me anything/,
    busy: /esc to interrupt/,
    approval: /Do you want to proceed with this operation\?/,
    approve: "Enter",
    settleMs: 1500,
  },
};

/** The fake reply's last word; seeing it means a streamed answer is complete. */
export const REPLY_END = DEFAULT_REPLY.split(" ").at(-1)!;

/** Resolves after `ms` milliseconds. */
/** Polls `probe` every 250 ms until it returns a value, or throws after `ms`. */
function poll<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  return waitFor(what, probe, { timeout: ms, interval: 250 });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Number of times `needle` occurs in `haystack`. */
export function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Options for {@linkcode startAgent}. */
export interface StartOptions {
  /** Scratch folder; `home/` and `project/` are created inside. */
  base: string;
  llmPort: number;
  hooks?: string;
  /** Unique tmux socket name. */
  socket: string;
  cols?: number;
  rows?: number;
  /** Called after the pane exists and before the agent command is typed. */
  beforeLaunch?: (pane: TmuxPane) => Promise<unknown>;
}

/** A running agent in its tmux pane. */
export class AgentDriver {
  /** Things worth reporting (retries, left-over processes). */
  readonly notes: string[] = [];
  /** Every input sent to the pane, in order: when, and the text or tmux key name. */
  readonly inputs: { at: number; type?: string; key?: string }[] = [];
  private readonly t0 = Date.now();

  constructor(
    readonly agent: AgentName,
    readonly pane: TmuxPane,
    readonly script: AgentScript,
    readonly launch: AgentLaunch,
    readonly home: string,
  ) {}

  /** Seconds since the driver was created, e.g. `"4.2s"`. */
  elapsed(): string {
    return `${((Date.now() - this.t0) / 1000).toFixed(1)}s`;
  }

  /**
   * Waits for the input box, then the agent's settle time. Returns how long the
   * input box took to show (e.g. `"4.2s"`).
   */
  async waitReady(ms = 90_000): Promise<string> {
    await poll("the input box", ms, async () => {
      return this.script.ready.test(await this.pane.capture()) || undefined;
    });
    const at = this.elapsed();
    await sleep(this.script.settleMs);
    return at;
  }

  /** Types `text` literally, and logs it in {@linkcode inputs}. */
  type(text: string): Promise<string> {
    this.inputs.push({ at: Date.now(), type: text });
    return this.pane.type(text);
  }

  /** Presses a tmux key (`Enter`, `BSpace`, …), and logs it in {@linkcode inputs}. */
  key(name: string): Promise<string> {
    this.inputs.push({ at: Date.now(), key: name });
    return this.pane.keys(name);
  }

  /** Types text, retrying when the CLI dropped the keys. */
  async typeVisible(text: string): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = count(await this.pane.capture(), text);
      await this.type(text);
      try {
        await poll(`"${text}" to show`, 4000, async () => {
          return count(await this.pane.capture(), text) > before ? true : undefined;
        });
        if (attempt > 1) this.notes.push(`typing "${text}" needed ${attempt} attempts`);
        return;
      } catch {
        await this.backspace(text.length);
        await sleep(500);
      }
    }
    throw new Error(`"${text}" never appeared in the input box`);
  }

  /** Sends Backspace `n` times, one key per write (Grok ignores a burst). */
  async backspace(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await this.key("BSpace");
      await sleep(20);
    }
  }

  /** Deletes `text` from the input box and checks it is gone. */
  async erase(text: string): Promise<void> {
    const before = count(await this.pane.capture(), text);
    await this.backspace(text.length);
    await poll(`"${text}" to be erased`, 5000, async () => {
      return count(await this.pane.capture(), text) < before ? true : undefined;
    });
    await sleep(500);
  }

  /** Types `text`, waits for it to show, then presses Enter in a separate write. */
  async submit(text: string): Promise<void> {
    await this.typeVisible(text);
    await sleep(400);
    await this.key("Enter");
  }

  /** True while a busy marker shows on screen (or in the title). */
  async isBusy(screen?: string): Promise<boolean> {
    const s = screen ?? await this.pane.capture();
    if (this.script.busy.test(s)) return true;
    return !!this.script.busyTitle?.test(await this.pane.title());
  }

  /** Waits until a busy marker shows. */
  async waitBusy(ms = 20_000): Promise<void> {
    await poll("busy", ms, () => this.isBusy().then((b) => b || undefined));
  }

  /** Waits until the approval dialog shows. */
  async waitApproval(ms = 30_000): Promise<void> {
    await poll("the approval dialog", ms, async () => {
      return this.script.approval.test(await this.pane.capture()) || undefined;
    });
  }

  /** Accepts the approval dialog's first option. */
  async approve(): Promise<void> {
    await this.key(this.script.approve);
  }

  /** Waits for a finished turn: `replies` complete answers, no busy marker, input box back. */
  async waitDone(replies: number, ms = 60_000): Promise<void> {
    let quiet = 0;
    await poll("the turn to finish", ms, async () => {
      const s = await this.pane.capture();
      const ok = count(s, REPLY_END) >= replies &&
        (this.script.idle ?? this.script.ready).test(s) && !await this.isBusy(s);
      quiet = ok ? quiet + 1 : 0;
      return quiet >= 3 ? true : undefined;
    });
  }

  /** Kills the tmux server, then (by pid) anything still running with this HOME. */
  async stop(): Promise<void> {
    await this.pane.kill();
    await sleep(1000);
    for (const pid of allPids()) {
      if (pid === Deno.pid) continue;
      let environ: string;
      try {
        environ = Deno.readTextFileSync(`/proc/${pid}/environ`);
      } catch {
        continue;
      }
      if (!environ.split("\0").includes(`HOME=${this.home}`)) continue;
      let comm = "?";
      try {
        comm = Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
      } catch { /* gone */ }
      this.notes.push(`left-over process ${comm} (pid ${pid}) after tmux exited; killed`);
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
  }
}

/**
 * Prepares the agent in a fresh `base` folder, starts a private tmux pane with
 * bash from `env -i`, and types the agent's command line into it.
 */
export async function startAgent(agent: AgentName, o: StartOptions): Promise<AgentDriver> {
  await Deno.remove(o.base, { recursive: true }).catch(() => {});
  const home = join(o.base, "home");
  const workdir = join(o.base, "project");
  const launch = await prepareAgent(agent, { home, workdir, llmPort: o.llmPort, hooks: o.hooks });
  const pane = await TmuxPane.start({
    socket: o.socket,
    cols: o.cols,
    rows: o.rows,
    cwd: workdir,
    env: { ...launch.env, PS1: "$ " },
  });
  const driver = new AgentDriver(agent, pane, SCRIPTS[agent], launch, home);
  try {
    await sleep(300);
    await o.beforeLaunch?.(pane);
    await driver.type([launch.command, ...launch.args].map(shellQuote).join(" "));
    await driver.key("Enter");
  } catch (err) {
    await driver.stop();
    throw err;
  }
  return driver;
}
