/**
 * A tiny tmux driver for real-agent tests: one private tmux server (its own
 * `-L` socket) holding one 120x40 pane that runs bash from an empty environment.
 *
 * @module
 */

import { shellQuote } from "../../lib/platform/shell.ts";

/** Foreground process of a pane, read from /proc. */
export interface Foreground {
  comm: string;
  argv: string[];
  /** Every process in the foreground process group, oldest pid first. */
  group: { comm: string; argv: string[] }[];
}

/** Options for {@linkcode TmuxPane.start}. */
export interface PaneOptions {
  /** Socket name for `tmux -L`; keep it unique per test. */
  socket: string;
  cols?: number;
  rows?: number;
  /** Starting directory of the shell. */
  cwd: string;
  /** Complete environment of the shell (passed through `env -i`). */
  env: Record<string, string>;
}

async function run(args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return new TextDecoder().decode(out.stdout);
}

export { shellQuote } from "../../lib/platform/shell.ts";

function readProc(pid: number): { comm: string; argv: string[]; pgrp: number; tpgid: number } {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const comm = Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
  const argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter((a) => a !== "");
  return { comm, argv, pgrp: Number(fields[2]), tpgid: Number(fields[5]) };
}

/** Pids of every live process, ascending. */
export function allPids(): number[] {
  const pids: number[] = [];
  for (const e of Deno.readDirSync("/proc")) if (/^\d+$/.test(e.name)) pids.push(Number(e.name));
  return pids.sort((a, b) => a - b);
}

/** One pane on a private tmux server. */
export class TmuxPane {
  private constructor(readonly socket: string) {}

  /** Starts the server with a single pane running `env -i <env> bash`. */
  static async start(o: PaneOptions): Promise<TmuxPane> {
    const pane = new TmuxPane(o.socket);
    const envArgs = Object.entries(o.env).map(([k, v]) => shellQuote(`${k}=${v}`));
    const shell = `env -i ${envArgs.join(" ")} bash --norc --noprofile -i`;
    const size = ["-x", String(o.cols ?? 120), "-y", String(o.rows ?? 40)];
    await run(["-L", o.socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", ...size]
      .concat(["-c", o.cwd, shell, ";", "set", "-g", "status", "off"]));
    // tmux starts every pane titled with the host name; clear it so a CLI that
    // never sets a title shows an empty one.
    await pane.tmux("select-pane", "-t", "main", "-T", "");
    return pane;
  }

  /** Runs a tmux command against this server. */
  tmux(...args: string[]): Promise<string> {
    return run(["-L", this.socket, ...args]);
  }

  /** Types text literally (no key names). */
  type(text: string): Promise<string> {
    return this.tmux("send-keys", "-t", "main", "-l", "--", text);
  }

  /** Sends key names (`Enter`, `Escape`, `BSpace`, …), optionally repeated. */
  keys(key: string, repeat = 1): Promise<string> {
    return this.tmux("send-keys", "-t", "main", "-N", String(repeat), key);
  }

  /** The visible screen; with `ansi` the SGR attributes are kept (`-e`). */
  capture(ansi = false): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", "main", ...(ansi ? ["-e"] : []));
  }

  /** `#{pane_title}` (set by OSC 0/2). */
  async title(): Promise<string> {
    return (await this.tmux("display-message", "-p", "-t", "main", "#{pane_title}")).replace(
      /\n$/,
      "",
    );
  }

  /** Pid of the shell the pane started. */
  async panePid(): Promise<number> {
    return Number((await this.tmux("display-message", "-p", "-t", "main", "#{pane_pid}")).trim());
  }

  /** The terminal's foreground process group, as seen in /proc. */
  async foreground(): Promise<Foreground> {
    const tpgid = readProc(await this.panePid()).tpgid;
    const lead = readProc(tpgid);
    const group: Foreground["group"] = [];
    for (const pid of allPids()) {
      try {
        const p = readProc(pid);
        if (p.pgrp === tpgid) group.push({ comm: p.comm, argv: p.argv });
      } catch { /* exited */ }
    }
    return { comm: lead.comm, argv: lead.argv, group };
  }

  /** Copies everything the pane's program writes into `file` (`pipe-pane -O`). */
  pipeTo(file: string): Promise<string> {
    return this.tmux("pipe-pane", "-O", "-t", "main", `cat > ${shellQuote(file)}`);
  }

  /** Hands everything the pane's program writes to the stdin of shell command `command`. */
  pipeThrough(command: string): Promise<string> {
    return this.tmux("pipe-pane", "-O", "-t", "main", command);
  }

  /** Stops a running `pipeTo` or `pipeThrough`. */
  stopPipe(): Promise<string> {
    return this.tmux("pipe-pane", "-t", "main");
  }

  /** Kills the whole private server (and with it the pane's processes) and removes its socket. */
  async kill(): Promise<void> {
    let socketPath = "";
    try {
      socketPath = (await this.tmux("display-message", "-p", "#{socket_path}")).trim();
      await this.tmux("kill-server");
    } catch { /* already gone */ }
    if (socketPath) await Deno.remove(socketPath).catch(() => {});
  }
}
