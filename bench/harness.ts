/**
 * Shared parts of `deno task bench`: an isolated Skiff, tmux on a private
 * socket, timing and the result table.
 *
 * @module
 */

import { join } from "node:path";
import { processPresence } from "../lib/platform/proc.ts";

/** The entry of the program under test. */
export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** One row of the result table. */
export interface BenchRow {
  /** What was measured. */
  metric: string;
  /** Skiff's number (the median when there are samples). */
  skiff: number;
  /** The baseline's number (tmux, or the tool named in the metric), when compared. */
  tmux?: number;
  /** The unit. */
  unit: string;
  /** Whether a bigger number is better (throughput) or worse (time, memory). */
  higherIsBetter: boolean;
  /** The target, for the notes column. */
  target?: string;
  /** Skiff's samples, so the table can show their spread. */
  skiffSamples?: number[];
  /** The baseline's samples. */
  tmuxSamples?: number[];
  /** Each run's ratio (Skiff against the baseline in the same round), when runs pair up. */
  ratios?: number[];
  /** Whether the target was met, when the row can tell. */
  met?: boolean;
}

/** A row built from samples: medians, spreads and, for paired runs, each run's ratio. */
export function sampledRow(
  row: Omit<BenchRow, "skiff" | "tmux" | "skiffSamples" | "tmuxSamples">,
  samples: { skiff: number[]; baseline?: number[]; paired?: boolean },
): BenchRow {
  const baseline = samples.baseline;
  return {
    ...row,
    skiff: median(samples.skiff),
    tmux: baseline ? median(baseline) : undefined,
    skiffSamples: samples.skiff,
    tmuxSamples: baseline,
    ratios: samples.paired && baseline
      ? samples.skiff.map((value, i) => value / baseline[i])
      : row.ratios,
  };
}

/** A row of times in ms (less is better) built from samples, as {@linkcode sampledRow} builds one. */
export function timeRow(
  row: { metric: string; target?: string },
  samples: { skiff: number[]; baseline?: number[]; paired?: boolean },
): BenchRow {
  return sampledRow({ ...row, unit: "ms", higherIsBetter: false }, samples);
}

/** An isolated Skiff: temp HOME, config, state and socket. */
export async function isolatedEnv(): Promise<{ root: string; env: Record<string, string> }> {
  const root = await Deno.makeTempDir({ prefix: "skiff-bench-" });
  await Deno.mkdir(join(root, "home"));
  const realHome = Deno.env.get("HOME") ?? "/root";
  return {
    root,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: join(root, "home"),
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(realHome, ".cache", "deno"),
      DENO_NO_UPDATE_CHECK: "1",
      SKIFF_CONFIG_DIR: join(root, "config"),
      SKIFF_STATE_DIR: join(root, "state"),
      SKIFF_SOCKET: join(root, "run", "skiffd.sock"),
      SHELL: "/bin/sh",
      TERM: "xterm-256color",
    },
  };
}

/** Runs a command and returns its stdout; throws on failure. */
export async function sh(
  program: string,
  args: string[],
  env?: Record<string, string>,
): Promise<string> {
  const out = await new Deno.Command(program, {
    args,
    env,
    clearEnv: env !== undefined,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`${program} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Runs `skiff args…` in `env` and returns its stdout and how long the whole process took (ms). */
export async function timeSkiff(
  args: string[],
  env: Record<string, string>,
): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  const stdout = await skiff(args, env);
  return { ms: performance.now() - start, stdout };
}

/** Runs `skiff args…` in `env`. */
export function skiff(args: string[], env: Record<string, string>): Promise<string> {
  return sh(Deno.execPath(), ["run", "-A", "-q", MAIN, ...args], env);
}

/** Polls `check` every 100 ms until it returns true; throws after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A shell's prompt at the end of a capture. */
export const PROMPT = /[$#] ?$/;

/** Waits until every pane of `ids` in skiffd shows a shell prompt. */
export async function waitForPrompts(
  client: { call(method: "pane.capture", params: { pane: string }): Promise<{ text: string }> },
  ids: string[],
  timeoutMs = 300_000,
): Promise<void> {
  await waitUntil("skiff prompts", async () => {
    for (const id of ids) {
      if (!PROMPT.test((await client.call("pane.capture", { pane: id })).text)) return false;
    }
    return true;
  }, timeoutMs);
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Resident memory of a process in bytes (Linux). */
export function rss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/** A tmux server on a private socket. */
export class Tmux {
  readonly socket: string;

  constructor(root: string) {
    this.socket = join(root, "tmux.sock");
  }

  /** Runs a tmux command against the private server. */
  run(...args: string[]): Promise<string> {
    return sh("tmux", ["-S", this.socket, "-f", "/dev/null", ...args]);
  }

  /** The server's pid. */
  async pid(): Promise<number> {
    return Number((await this.run("display-message", "-p", "#{pid}")).trim());
  }

  /**
   * Stops the server and waits until its process is gone. A server of a
   * thousand panes goes on for many seconds after `kill-server`, busy with
   * ending them; what it spends then must not be taken from what Skiff is
   * measured doing next.
   */
  async kill(): Promise<void> {
    const pid = await this.pid().catch(() => undefined);
    await this.run("kill-server").catch(() => {});
    if (!pid) return;
    const deadline = Date.now() + TMUX_END_MS;
    while (processPresence(pid) === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (processPresence(pid) === "running") Deno.kill(pid, "SIGKILL");
  }
}

/** How long a tmux server may take to end after `kill-server` before it is killed. */
const TMUX_END_MS = 120_000;

function formatNumber(n: number | undefined): string {
  if (n === undefined) return "-";
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

function formatSpread(value: number | undefined, samples: number[] | undefined): string {
  if (value === undefined) return "-";
  if (!samples || samples.length < 2) return formatNumber(value);
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return `${formatNumber(value)} (${formatNumber(min)}–${formatNumber(max)})`;
}

function formatRatio(row: BenchRow): string {
  if (row.tmux === undefined || row.tmux <= 0) return "-";
  const r = row.skiff / row.tmux;
  const good = row.higherIsBetter ? r >= 1 : r <= 1;
  let text = `${r.toFixed(2)}x ${
    row.higherIsBetter ? (good ? "(faster)" : "(slower)") : (good ? "(better)" : "(worse)")
  }`;
  if (row.ratios && row.ratios.length > 1) {
    const worst = row.higherIsBetter ? Math.min(...row.ratios) : Math.max(...row.ratios);
    text += `, worst run ${worst.toFixed(2)}x`;
  }
  return text;
}

/**
 * Formats the result table: medians with (min–max) of the samples, and the
 * ratio of Skiff to the baseline.
 */
export function renderTable(rows: BenchRow[]): string {
  const lines = [[
    "metric",
    "skiff median (min–max)",
    "baseline median (min–max)",
    "unit",
    "skiff vs baseline",
    "target",
    "met",
  ]];
  for (const row of rows) {
    lines.push([
      row.metric,
      formatSpread(row.skiff, row.skiffSamples),
      formatSpread(row.tmux, row.tmuxSamples),
      row.unit,
      formatRatio(row),
      row.target ?? "",
      row.met === undefined ? "" : row.met ? "yes" : "NO",
    ]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}
