/**
 * The TUI libraries the dashboard could use, measured in Deno on a real
 * terminal (a PTY of 200×60) against the dashboard's own painter: the
 * import, the first frame after the process started, a redraw after the
 * selection moved, and memory. Each library runs `RUNS` times in a fresh
 * process; the table shows medians. `deno run -A bench/tui/libs.ts`.
 *
 * @opentui/core is not measured: it needs Bun's FFI (`bun:ffi`) or Node's
 * experimental `node:ffi`, which Deno has neither of, and Deno cannot
 * install it from npm (its optional native packages for some platforms are
 * not published at its version).
 *
 * @module
 */

import { spawnPty } from "../../lib/platform/pty.ts";
import { median } from "../harness.ts";

const LIBS = ["hand", "pi-tui", "terminal-kit", "ink"];
const RUNS = 5;
const CHILD = new URL("./child.ts", import.meta.url).pathname;

interface Result {
  lib: string;
  importMs: number;
  firstFrameMs: number;
  redrawMs: number;
  rssMb: number;
}

async function once(lib: string, file: string): Promise<void> {
  const pty = await spawnPty(Deno.execPath(), ["run", "-A", "-q", CHILD, lib], {
    cwd: Deno.cwd(),
    env: { ...Deno.env.toObject(), TUI_RESULT: file, TERM: "xterm-256color" },
    cols: 200,
    rows: 60,
  });
  pty.onData(() => {});
  await new Promise<void>((resolve) => pty.onExit(() => resolve()));
}

/** Runs every library; returns the median of each measure. */
export async function measureLibs(log: (line: string) => void): Promise<Result[]> {
  const file = await Deno.makeTempFile({ prefix: "skiff-tui-" });
  const results: Result[] = [];
  try {
    for (const lib of LIBS) {
      await Deno.writeTextFile(file, "");
      for (let i = 0; i < RUNS; i++) await once(lib, file);
      const runs = (await Deno.readTextFile(file)).trim().split("\n").filter(Boolean)
        .map((line) => JSON.parse(line) as Result);
      if (runs.length === 0) throw new Error(`${lib} reported nothing`);
      const result = {
        lib,
        importMs: median(runs.map((r) => r.importMs)),
        firstFrameMs: median(runs.map((r) => r.firstFrameMs)),
        redrawMs: median(runs.map((r) => r.redrawMs)),
        rssMb: median(runs.map((r) => r.rssMb)),
      };
      log(
        `  ${lib}: import ${result.importMs.toFixed(1)} ms, first frame ${
          result.firstFrameMs.toFixed(1)
        } ms, redraw ${result.redrawMs.toFixed(2)} ms, ${result.rssMb.toFixed(1)} MB`,
      );
      results.push(result);
    }
  } finally {
    await Deno.remove(file).catch(() => {});
  }
  return results;
}

if (import.meta.main) {
  const results = await measureLibs((line) => console.error(line));
  console.log("| library | import | first frame | redraw | memory (RSS) |");
  console.log("|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.lib} | ${r.importMs.toFixed(1)} ms | ${r.firstFrameMs.toFixed(1)} ms | ${
        r.redrawMs.toFixed(2)
      } ms | ${r.rssMb.toFixed(1)} MB |`,
    );
  }
}
