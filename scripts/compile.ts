/**
 * `deno task compile [NAME…] [--out DIR]`: one `skiff` binary per OS and CPU,
 * as `DIR/skiff-NAME` (default `dist/`). Names: linux-x64, linux-arm64,
 * macos-x64, macos-arm64; no name builds all four.
 *
 * `deno compile` builds on a Deno runtime for the target (denort) that it
 * downloads from dl.deno.land. Where that cannot be reached, this says so in
 * one line instead of Deno's error chain.
 *
 * Exit codes: 0 built, 1 `deno compile` failed, 2 bad usage or stale assets,
 * 3 the runtime could not be downloaded.
 *
 * @module
 */

import { join, relative } from "node:path";
import { staleModules } from "./embed.ts";

/** A binary the release ships. */
export interface Target {
  /** The name in the file name: `skiff-NAME`. */
  name: string;
  /** Deno's target triple. */
  triple: string;
  /**
   * Extract the embedded files to disk on first run. node-pty on macOS runs a
   * `spawn-helper` program from its package, which must be a real file.
   */
  selfExtracting: boolean;
}

/** The four binaries, by name. */
export const TARGETS: Target[] = [
  { name: "linux-x64", triple: "x86_64-unknown-linux-gnu", selfExtracting: false },
  { name: "linux-arm64", triple: "aarch64-unknown-linux-gnu", selfExtracting: false },
  { name: "macos-x64", triple: "x86_64-apple-darwin", selfExtracting: true },
  { name: "macos-arm64", triple: "aarch64-apple-darwin", selfExtracting: true },
];

const ROOT = new URL("../", import.meta.url).pathname;

/** The `deno compile` arguments that build `target` into `output`. */
export function compileArgs(target: Target, output: string): string[] {
  return [
    "compile",
    "-A",
    "--target",
    target.triple,
    ...(target.selfExtracting ? ["--self-extracting"] : []),
    // main.ts loads commands by computed name; this puts every command in the binary.
    "--include",
    join(ROOT, "cmd", "loaders.ts"),
    "--output",
    output,
    join(ROOT, "main.ts"),
  ];
}

/**
 * When `stderr` of `deno compile` says the target's runtime could not be
 * downloaded, returns one line that says so; otherwise undefined.
 */
export function downloadFailure(stderr: string, target: Target): string | undefined {
  const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  const url = plain.match(/https:\/\/dl\.deno\.land\/\S+?\.zip/)?.[0];
  if (!url && !plain.includes("Setting up base binary")) return undefined;
  // Deno's "Caused by:" chain ends with the root cause, as "N: cause".
  const chain = plain.split("Caused by:")[1]?.split(/\n\s*\n/)[0] ?? "";
  const causes = [...chain.matchAll(/^\s*\d+: (.+)$/gm)].map((m) => m[1].trim());
  const cause = causes.at(-1) ?? "download failed";
  return `compile: cannot download Deno's runtime for ${target.triple} (${
    url ?? "dl.deno.land"
  }): ${cause}. Build where dl.deno.land is reachable; the release workflow does.`;
}

interface Options {
  targets: Target[];
  out: string;
}

function parseArgs(args: string[]): Options | string {
  let out = join(ROOT, "dist");
  const targets: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--out") {
      const value = args[++i];
      if (!value) return "--out needs a folder";
      out = value;
      continue;
    }
    const target = TARGETS.find((t) => t.name === arg);
    if (!target) {
      return `unknown target '${arg}'; targets: ${TARGETS.map((t) => t.name).join(", ")}`;
    }
    targets.push(target);
  }
  return { targets: targets.length ? targets : TARGETS, out };
}

async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === "string") {
    console.error(`compile: ${options}`);
    return 2;
  }
  const stale = await staleModules();
  if (stale.length > 0) {
    console.error(`compile: out of date: ${stale.join(", ")}. Run 'deno task embed'.`);
    return 2;
  }
  await Deno.mkdir(options.out, { recursive: true });
  for (const target of options.targets) {
    const output = join(options.out, `skiff-${target.name}`);
    const result = await new Deno.Command(Deno.execPath(), {
      args: compileArgs(target, output),
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(result.stderr);
    if (!result.success) {
      const line = downloadFailure(stderr, target);
      if (line) {
        console.error(line);
        return 3;
      }
      console.error(stderr.trimEnd());
      console.error(`compile: deno compile failed for ${target.name}`);
      return 1;
    }
    const size = (await Deno.stat(output)).size / 1e6;
    console.log(`compile: ${relative(Deno.cwd(), output) || output} (${size.toFixed(1)} MB)`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
