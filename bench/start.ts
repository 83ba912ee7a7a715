/**
 * How fast `skiff` starts, against Deno itself in the same rounds:
 *
 * - the checkout's launcher (`./skiff`) against `deno run -A main.ts`, both
 *   printing the version: what the launcher adds;
 * - the `skiff` a pane finds on its PATH (skiffd's script beside its
 *   socket) against the same;
 * - a cold `skiff ls --json` (a new process, skiffd running with a few
 *   panes) against a Deno hello world.
 *
 * Each round runs every command once, in turn, so load on the machine falls
 * on all of them alike; the rows are medians and ratios.
 *
 * @module
 */

import { join } from "node:path";
import { type BenchRow, isolatedEnv, MAIN, median, skiff, timeRow } from "./harness.ts";

const ROUNDS = 31;
const LAUNCHER = new URL("../skiff", import.meta.url).pathname;

async function timed(argv: string[], env: Record<string, string>): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  if (!out.success) {
    throw new Error(`${argv.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

/** Runs the start benchmarks and returns their rows. */
export async function benchStart(log: (line: string) => void): Promise<BenchRow[]> {
  const { root, env } = await isolatedEnv();
  // The launcher picks the deno first on PATH: the one this bench runs.
  const deno = Deno.execPath();
  env.PATH = `${join(deno, "..")}:${env.PATH}`;
  const hello = join(root, "hello.ts");
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  try {
    for (let i = 0; i < 3; i++) await skiff(["new"], env);
    const shim = join(root, "run", "skiffd.bin", "skiff");
    const commands: Record<string, string[]> = {
      hello: [deno, "run", "-A", "-q", hello],
      version: [deno, "run", "-A", "-q", MAIN, "--version"],
      launcher: [LAUNCHER, "--version"],
      shim: [shim, "--version"],
      ls: [deno, "run", "-A", "-q", MAIN, "ls", "--json"],
    };
    // The launcher's first run chooses its Deno and prepares the packages.
    for (const argv of Object.values(commands)) await timed(argv, env);
    const times: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, argv] of Object.entries(commands)) {
        (times[name] ??= []).push(await timed(argv, env));
      }
    }
    const added = (name: string) => times[name].map((ms, i) => ms - times.version[i]);
    log(
      `  start (medians): hello ${median(times.hello).toFixed(1)} ms, --version ${
        median(times.version).toFixed(1)
      }, ./skiff --version ${median(times.launcher).toFixed(1)}, pane's skiff --version ${
        median(times.shim).toFixed(1)
      }, ls --json ${median(times.ls).toFixed(1)}`,
    );
    const launcher = timeRow({
      metric: "./skiff --version: what the launcher adds to deno run -A main.ts",
      target: "<= 2 ms",
    }, { skiff: added("launcher") });
    const paneSkiff = timeRow({
      metric: "a pane's skiff --version: what its script adds to deno run -A main.ts",
      target: "<= 2 ms",
    }, { skiff: added("shim") });
    const ls = timeRow({
      metric: "a cold skiff ls --json (vs a Deno hello world)",
      target: "<= 1.3x",
    }, { skiff: times.ls, baseline: times.hello, paired: true });
    return [
      { ...launcher, met: launcher.skiff <= 2 },
      { ...paneSkiff, met: paneSkiff.skiff <= 2 },
      { ...ls, met: ls.skiff <= 1.3 * ls.tmux! },
    ];
  } finally {
    await skiff(["daemon", "stop"], env).catch(() => {});
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { renderTable } = await import("./harness.ts");
  console.log(renderTable(await benchStart((line) => console.error(line))));
  Deno.exit(0);
}
