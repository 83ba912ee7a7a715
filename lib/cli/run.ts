/**
 * The CLI's dispatcher: picks a command from the table, loads only that
 * command's module, parses, runs, and turns errors into exit codes.
 *
 * @module
 */

import { Exit, SkiffError } from "../errors.ts";
import { Output, reportError } from "./output.ts";
import { parse } from "./parse.ts";
import type { CommandEntry } from "./spec.ts";
import type { ValueSource } from "./complete.ts";
import { VERSION } from "../version.ts";
import { skewHint } from "../client/skew.ts";
import { importLater } from "../platform/later.ts";

// Help and completion are loaded when asked for: a command that runs needs neither.
const help = () => importLater<typeof import("./help.ts")>("lib/cli/help.ts");
const completion = () => importLater<typeof import("./complete.ts")>("lib/cli/complete.ts");

/** The global flags that may come before the command as well as after it. */
const GLOBAL_FLAGS = new Set(["--json", "--help", "-h"]);

/** Options for {@linkcode runCli}. */
export interface RunCliOptions {
  /** Where completion finds pane, session, project, agent and task names. */
  values?: ValueSource;
  /**
   * The command that the program alone (no arguments) runs when stdin and
   * stdout are a terminal; without a terminal it prints the help.
   */
  bare?: string;
}

/**
 * What `skiff --version --json` prints: this build, the runtime it runs on,
 * and whether it is a compiled binary (else `deno run` of the sources or of
 * the npm package's bundle).
 */
export function versionReport(): Record<string, unknown> {
  return {
    version: VERSION,
    runtime: { deno: Deno.version.deno, v8: Deno.version.v8, typescript: Deno.version.typescript },
    compiled: Deno.build.standalone,
    target: Deno.build.target,
  };
}

/**
 * Runs the command line `argv` against `entries` and returns the exit code.
 * `skiff __complete -- WORDS…` (for the shell scripts of `skiff
 * completions`) prints the candidates for the last word.
 */
export async function runCli(
  entries: CommandEntry[],
  argv: string[],
  options: RunCliOptions = {},
): Promise<number> {
  if (argv[0] === "__complete") {
    const words = argv.slice(argv[1] === "--" ? 2 : 1);
    const { complete, completionText } = await completion();
    const text = completionText(
      await complete(entries, words, options.values ?? (() => Promise.resolve([]))),
    );
    if (text !== "") console.log(text);
    return Exit.OK;
  }
  if (
    argv.length === 0 && options.bare !== undefined && Deno.stdin.isTerminal() &&
    Deno.stdout.isTerminal()
  ) {
    return runCli(entries, [options.bare], options);
  }
  // Global flags may come before the command too: `skiff --json ls`, `skiff --help ledger add`.
  let lead = 0;
  while (GLOBAL_FLAGS.has(argv[lead])) lead++;
  const flags = argv.slice(0, lead);
  const words = argv.slice(lead);
  // A `--json` after `--` belongs to the pane's command (`skiff new -- tool --json`).
  const own = argv.indexOf("--") === -1 ? argv : argv.slice(0, argv.indexOf("--"));
  const json = own.includes("--json");
  const first = words[0];
  if (first === undefined || first === "help") {
    const topic = first === "help" ? words.slice(1) : [];
    if (topic.length === 0) {
      console.log((await help()).renderRootHelp(entries));
      return Exit.OK;
    }
    return runCli(entries, [...topic, "--help"], options);
  }
  if (first === "--version" || first === "-V") {
    if (json) new Output(true).data(versionReport());
    else console.log(`skiff ${VERSION}`);
    return Exit.OK;
  }
  if (lead > 0) {
    // The command's own parse sees the flags right after the command word (never after `--`).
    return runCli(entries, [first, ...flags, ...words.slice(1)], options);
  }
  if (first.startsWith("-")) {
    return reportError(
      new SkiffError(`Unknown option '${first}' before the command. See 'skiff --help'.`, {
        exit: "USAGE",
      }),
      json,
    );
  }
  try {
    const entry = entries.find((e) => e.name === first || e.aliases?.includes(first));
    if (!entry) {
      throw new SkiffError(`Unknown command '${first}'. See 'skiff --help'.`, { exit: "USAGE" });
    }
    const spec = await entry.load();
    const parsed = parse(spec, argv.slice(1), { prefix: [spec.name] });
    const path = [spec.name, ...parsed.path];
    if (parsed.opts.help || !parsed.command.run) {
      const text = (await help()).renderHelp(parsed.command, path);
      if (parsed.opts.help) {
        console.log(text);
        return Exit.OK;
      }
      console.error(text);
      return Exit.USAGE;
    }
    const out = new Output(json);
    let code: number;
    try {
      code = await parsed.command.run({
        args: parsed.args,
        opts: parsed.opts,
        rest: parsed.rest,
        json,
        out,
      }) ?? Exit.OK;
    } catch (error) {
      code = reportError(error, json);
    }
    // Last, so it never sits among the command's own lines.
    const hint = skewHint();
    if (hint) out.notice(hint);
    return code;
  } catch (error) {
    return reportError(error, json);
  }
}
