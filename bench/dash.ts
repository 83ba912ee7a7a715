/**
 * The dashboard (`skiff dash`) on 200 panes: the first full frame after its
 * start, a key to its redraw, a pane's output to the preview, its CPU while
 * idle; then, with 20 panes flooding and one of them previewed, a key to
 * its redraw, and the flood rows of the load bench (`ls --json`, a
 * keystroke's echo, a guarded send) with a dashboard open, against the same
 * rows without one in the same run.
 *
 * @module
 */

import { join } from "node:path";
import { fakeAgentToml } from "../tests/helpers/fake_agent.ts";
import { DaemonClient } from "../lib/client/client.ts";
import { type Pty, spawnPty } from "../lib/platform/pty.ts";
import {
  type BenchRow,
  isolatedEnv,
  MAIN,
  sampledRow,
  skiff,
  timeSkiff,
  waitUntil,
} from "./harness.ts";

const PANES = 200;
const FLOODING = 20;
const KEY_RUNS = 31;
const PREVIEW_RUNS = 15;
const IDLE_SECONDS = 5;
const START_RUNS = 9;

/** A dashboard running on a PTY, with what it printed (the scale bench opens one too). */
export class Dash {
  readonly pty: Pty;
  #out = "";
  #waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  private constructor(pty: Pty) {
    this.pty = pty;
    const decoder = new TextDecoder();
    pty.onData((data) => {
      this.#out += decoder.decode(data, { stream: true });
      if (this.#out.length > 1 << 20) this.#out = this.#out.slice(-(1 << 19));
      this.#waiters = this.#waiters.filter((w) => !(w.test(this.#out) && (w.resolve(), true)));
    });
  }

  static async open(env: Record<string, string>, cwd: string): Promise<Dash> {
    const pty = await spawnPty(Deno.execPath(), ["run", "-A", "-q", MAIN, "dash"], {
      cwd,
      env,
      cols: 200,
      rows: 60,
    });
    return new Dash(pty);
  }

  /** Forgets what came so far. */
  clear(): void {
    this.#out = "";
  }

  /** Resolves once the output (since the last clear) passes `test`. */
  until(test: (text: string) => boolean, timeoutMs = 20_000): Promise<void> {
    if (test(this.#out)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the dashboard never showed it")), timeoutMs);
      this.#waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Types `key` and times until a redraw moved the selection mark. */
  async keyToRedraw(key: string): Promise<number> {
    this.clear();
    const start = performance.now();
    this.pty.write(new TextEncoder().encode(key));
    await this.until((text) => text.includes("›") && text.includes("\x1b[?2026l"));
    return performance.now() - start;
  }

  /** CPU time used so far (ms): user and system. */
  cpuMs(): number {
    const stat = Deno.readTextFileSync(`/proc/${this.pty.pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }

  close(): void {
    try {
      this.pty.kill("SIGTERM");
    } catch {
      // Gone already.
    }
  }
}

async function floodTimes(
  env: Record<string, string>,
  quiet: string,
  agent: string,
): Promise<{ ls: number[]; echo: number[]; send: number[] }> {
  const ls: number[] = [];
  for (let i = 0; i < 7; i++) ls.push((await timeSkiff(["ls", "--json"], env)).ms);
  const echo: number[] = [];
  for (let i = 0; i < 5; i++) {
    const mark = `echo${i}mark`;
    const start = performance.now();
    await skiff(["keys", quiet, mark], env);
    await waitUntil("the echo", async () => (await skiff(["capture", quiet], env)).includes(mark));
    echo.push(performance.now() - start);
    await skiff(["keys", quiet, "C-u"], env);
  }
  const send: number[] = [];
  for (let i = 0; i < 3; i++) {
    const out = JSON.parse(
      await skiff(["send", agent, `SLOW 100 flood task ${i}`, "--enter", "--json"], env),
    );
    send.push(out.elapsed_ms - out.agent_wait_ms);
    await skiff(["wait", agent, "--until", "idle", "--timeout", "60"], env);
  }
  return { ls, echo, send };
}

/** Measures the dashboard; see the module's documentation. */
export async function benchDash(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  let dash: Dash | undefined;
  try {
    await Deno.mkdir(env.SKIFF_CONFIG_DIR, { recursive: true });
    await Deno.writeTextFile(
      join(env.SKIFF_CONFIG_DIR, "projects.toml"),
      fakeAgentToml().join("\n") + "\n",
    );
    await skiff(["daemon", "start"], env);
    const client = await DaemonClient.connect(env.SKIFF_SOCKET);
    const ids: string[] = [];
    for (let i = 0; i < PANES; i++) {
      ids.push(
        (await client.call("pane.new", { command: ["sh"], cwd: root, name: `idle${i}` })).id,
      );
    }
    await skiff(["new", "--agent", "fake", "--name", "agent"], env);
    await skiff(["wait", "agent", "--until", "idle", "--timeout", "60"], env);

    // Deno's own start, in the same rounds: the floor under the first frame.
    const starts: number[] = [];
    const versions: number[] = [];
    for (let i = 0; i < START_RUNS; i++) {
      versions.push((await timeSkiff(["--version"], env)).ms);
      const start = performance.now();
      const one = await Dash.open(env, root);
      await one.until((text) => text.includes(`${PANES + 1} panes`) && text.includes("›"));
      starts.push(performance.now() - start);
      one.close();
    }
    log(`  dash first frame, ${PANES + 1} panes: ${starts.map((n) => n.toFixed(0)).join(" ")} ms`);

    dash = await Dash.open(env, root);
    await dash.until((text) => text.includes(`${PANES + 1} panes`));
    // A few keys first, not counted: the first ones compile the code they run.
    for (let i = 0; i < 6; i++) await dash.keyToRedraw(i % 2 ? "k" : "j");
    const keys: number[] = [];
    for (let i = 0; i < KEY_RUNS; i++) keys.push(await dash.keyToRedraw(i % 2 ? "k" : "j"));
    log(`  dash key to redraw: ${keys.map((n) => n.toFixed(1)).join(" ")} ms`);

    // The last pane, quiet, in the preview: the time from its output to the dashboard's.
    // The last pane is the fake agent; the one above it, the last shell.
    await dash.keyToRedraw("G");
    await dash.keyToRedraw("k");
    const quiet = ids.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const preview: number[] = [];
    for (let i = 0; i < PREVIEW_RUNS; i++) {
      const mark = `mark${i}x`;
      dash.clear();
      const start = performance.now();
      await client.call("pane.keys", { pane: quiet, keys: [mark], literal: true });
      await dash.until((text) => text.includes(mark));
      preview.push(performance.now() - start);
      await client.call("pane.keys", { pane: quiet, keys: ["C-u"] });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    log(`  dash preview latency: ${preview.map((n) => n.toFixed(1)).join(" ")} ms`);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const cpuBefore = dash.cpuMs();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idleCpu = (dash.cpuMs() - cpuBefore) / (IDLE_SECONDS * 1000) * 100;
    log(`  dash idle CPU: ${idleCpu.toFixed(2)}% of a core`);

    // Flood: without the dashboard first, then with it, the first flooding pane previewed.
    dash.close();
    dash = undefined;
    const flooding = ids.slice(0, FLOODING);
    for (const id of flooding) await skiff(["keys", id, "yes", "Enter"], env);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const without = await floodTimes(env, quiet, "agent");
    dash = await Dash.open(env, root);
    await dash.until((text) => text.includes(`${PANES + 1} panes`));
    await dash.keyToRedraw("g");
    await dash.keyToRedraw("j");
    const floodKeys: number[] = [];
    for (let i = 0; i < KEY_RUNS; i++) floodKeys.push(await dash.keyToRedraw(i % 2 ? "j" : "k"));
    log(
      `  dash key to redraw while ${FLOODING} flood: ${
        floodKeys.map((n) => n.toFixed(1)).join(" ")
      } ms`,
    );
    const withDash = await floodTimes(env, quiet, "agent");
    log(`  with a dashboard open: ls ${withDash.ls.map((n) => n.toFixed(0)).join(" ")} ms`);
    for (const id of flooding) await skiff(["keys", id, "C-c"], env);
    client.close();

    const row = (
      metric: string,
      samples: number[],
      target: string,
      met: (v: number) => boolean,
    ) => {
      const r = sampledRow({ metric, unit: "ms", higherIsBetter: false, target }, {
        skiff: samples,
      });
      r.met = met(r.skiff);
      return r;
    };
    const versus = (
      metric: string,
      a: number[],
      b: number[],
      target: string,
      met: (v: number, w: number) => boolean,
    ) => {
      const r = sampledRow({ metric, unit: "ms", higherIsBetter: false, target }, {
        skiff: a,
        baseline: b,
      });
      r.met = met(r.skiff, r.tmux!);
      return r;
    };
    return [
      versus(
        `dash: first full frame, ${PANES + 1} panes, from its start (vs skiff --version)`,
        starts,
        versions,
        "< 150 ms",
        (v) => v < 150,
      ),
      row("dash: key to redraw (median)", keys, "< 16 ms", (v) => v < 16),
      row("dash: a pane's output to the preview", preview, "< 50 ms", (v) => v < 50),
      {
        metric: "dash: CPU while idle",
        skiff: idleCpu,
        unit: "% of a core",
        higherIsBetter: false,
        target: "< 1%",
        met: idleCpu < 1,
      },
      row(
        `dash: key to redraw while ${FLOODING} flood, one previewed`,
        floodKeys,
        "< 100 ms",
        (v) => v < 100,
      ),
      versus(
        `ls --json while ${FLOODING} flood, dashboard open (vs none open)`,
        withDash.ls,
        without.ls,
        "< 200 ms",
        (v) => v < 200,
      ),
      versus(
        `keystroke echo while ${FLOODING} flood, dashboard open (vs none open)`,
        withDash.echo,
        without.echo,
        "<= 1.5x none open",
        (v, w) => v <= 1.5 * w,
      ),
      versus(
        `guarded send overhead while ${FLOODING} flood, dashboard open (vs none)`,
        withDash.send,
        without.send,
        "< 100 ms",
        (v) => v < 100,
      ),
    ];
  } finally {
    dash?.close();
    await skiff(["daemon", "stop"], env).catch(() => {});
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchDash((line) => console.error(line))));
  // Done once the table is out: a terminal's reader left behind by a dashboard that ended
  // must not keep the bench from ending (it did, after printing).
  Deno.exit(0);
}
