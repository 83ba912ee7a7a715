/**
 * A ledger that cannot be written: on a file system mounted read-only, and
 * as a read-only file in a read-only folder. Every command gives one line
 * saying why, exit 6, and the file stays byte for byte.
 *
 * @module
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { agentDir, files, row } from "../helpers/ledger.ts";
import {
  decodeOutput,
  hasCommand,
  MAIN,
  type RunResult,
  type SkiffEnv,
  withSkiff,
} from "../helpers/skiff.ts";

/** Every kind of ledger command, reading and writing, on the plans `a` and `b`. */
function commands(a: string, b: string): string[][] {
  return [
    ["ls"],
    ["ls", "--all"],
    ["show", a],
    ["add", "--task", "more"],
    ["update", b, "--ref", "r"],
    ["done", b],
    ["rm", b],
  ];
}

/** Whether this process may make a mount namespace (root on Linux with unshare). */
function canMount(): boolean {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return false;
  try {
    return new Deno.Command("unshare", {
      args: ["-m", "--propagation", "private", "true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Runs `skiff args…` where `dir` is mounted read-only (a mount namespace of its own). */
async function onReadOnlyFs(skiff: SkiffEnv, dir: string, args: string[]): Promise<RunResult> {
  const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && ' +
    'exec "$0" run -A -q "$@"';
  return decodeOutput(
    await new Deno.Command("unshare", {
      args: [
        "-m",
        "--propagation",
        "private",
        "sh",
        "-c",
        script,
        Deno.execPath(),
        dir,
        MAIN,
        ...args,
      ],
      env: skiff.env,
      clearEnv: true,
      cwd: skiff.env.HOME,
      stdin: "null",
    }).output(),
  );
}

function checkRefusal(result: RunResult, args: string[], path: string, why: RegExp): void {
  assertEquals(result.code, 6, `ledger ${args.join(" ")}: ${result.stderr}`);
  assertEquals(result.stdout, "");
  assertMatch(result.stderr, /^skiff: Ledger is read-only \([^\n]+\): [^\n]+\n$/, "one line");
  assertMatch(result.stderr, why);
  assertEquals(result.stderr.trim().endsWith(path), true, result.stderr);
}

Deno.test({
  name:
    "a ledger on a read-only file system: one line for each command, exit 6, the file byte for byte",
  ignore: !canMount(),
  fn: async () => {
    await withSkiff(async (skiff) => {
      const a = (await row(skiff, ["add", "--task", "A plan"])).uid;
      const b = (await row(skiff, ["add", "--task", "Another plan"])).uid;
      const dir = agentDir(skiff);
      const path = join(dir, "ledger.db");
      const bytes = await Deno.readFile(path);
      const names = await files(dir);
      for (const args of commands(a, b)) {
        const result = await onReadOnlyFs(skiff, dir, ["ledger", ...args]);
        checkRefusal(result, args, path, /its file system is mounted read-only/);
      }
      const json = await onReadOnlyFs(skiff, dir, ["ledger", "add", "--task", "x", "--json"]);
      assertEquals(json.code, 6);
      const error = JSON.parse(json.stderr).error;
      assertEquals([error.code, error.path], ["data", path]);
      assertEquals(await Deno.readFile(path), bytes, "the file is byte for byte");
      assertEquals(await files(dir), names, "no file appeared");
      // Writable again, it works as before.
      await row(skiff, ["done", b]);
    });
  },
});

/**
 * Runs `skiff args…` as a user without root's power to ignore file modes:
 * this process's own user, or nobody (65534) when that is root. Every file
 * the command touches must belong to that user.
 */
async function asPlainUser(skiff: SkiffEnv, args: string[]): Promise<RunResult> {
  if (Deno.uid() !== 0) return await skiff.run(args);
  const env = { ...skiff.env, DENO_DIR: join(skiff.root, "deno") };
  return decodeOutput(
    await new Deno.Command("setpriv", {
      args: [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        Deno.execPath(),
        "run",
        "-A",
        "-q",
        MAIN,
        ...args,
      ],
      env,
      clearEnv: true,
      cwd: skiff.env.HOME,
      stdin: "null",
    }).output(),
  );
}

Deno.test({
  name: "a read-only ledger file, or a read-only folder: one line saying which, exit 6, untouched",
  ignore: Deno.uid() === 0 && !hasCommand("setpriv"),
  fn: async () => {
    await withSkiff(async (skiff) => {
      const run = async (args: string[]) => {
        const result = await asPlainUser(skiff, ["ledger", ...args, "--json"]);
        if (result.code !== 0) throw new Error(`ledger ${args.join(" ")}: ${result.stderr}`);
        return JSON.parse(result.stdout).row.uid as string;
      };
      if (Deno.uid() === 0) {
        await Deno.chmod(skiff.root, 0o755);
        await new Deno.Command("chown", { args: ["-R", "65534:65534", skiff.root] }).output();
      }
      const a = await run(["add", "--task", "A plan"]);
      const b = await run(["add", "--task", "Another plan"]);
      const dir = agentDir(skiff);
      const path = join(dir, "ledger.db");
      const bytes = await Deno.readFile(path);
      const names = await files(dir);
      const cases: [string, number, number, RegExp][] = [
        ["file and folder", 0o444, 0o555, /no permission to write the file/],
        ["folder", 0o644, 0o555, /no permission to write its folder /],
      ];
      try {
        for (const [what, fileMode, dirMode, why] of cases) {
          await Deno.chmod(path, fileMode);
          await Deno.chmod(dir, dirMode);
          for (const args of commands(a, b)) {
            const result = await asPlainUser(skiff, ["ledger", ...args]);
            checkRefusal(result, args, path, why);
          }
          assertEquals(await Deno.readFile(path), bytes, `${what}: the file is byte for byte`);
          assertEquals(await files(dir), names, `${what}: no file appeared`);
        }
      } finally {
        await Deno.chmod(dir, 0o755);
        await Deno.chmod(path, 0o644);
      }
      await run(["done", b]);
    });
  },
});
