/**
 * Helpers for the Skiff agent's end-to-end tests: the fake agent as the
 * Skiff agent (started through a wrapper that logs every start with its
 * arguments), `skiff skipper` in a real terminal, and the agent's panes.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { FAKE_AGENT, fakeAgentToml } from "./fake_agent.ts";
import { MAIN, type SkiffEnv } from "./skiff.ts";
import { TestTerminal } from "./terminal.ts";
import type { PaneInfo } from "../../lib/protocol/panes.ts";
import type { SkiffAgentStatus, StartOutcome } from "../../lib/skipper/mod.ts";
import type { EnsureHow } from "../../lib/protocol/session_ensure.ts";

/** What setup makes in the Skiff agent's folder (see lib/skipper/setup.ts), sorted. */
export const SETUP_NAMES: readonly string[] = [
  ".agents",
  ".claude",
  ".skiff-agent",
  "AGENTS.md",
  "CLAUDE.md",
  "GEMINI.md",
  "results",
];

/** What `skiff skipper --json` prints. */
export interface OpenJson extends SkiffAgentStatus {
  /** Whether the session was found, adopted or made. */
  how: EnsureHow;
  /** Whether a start line was typed. */
  start: StartOutcome;
}

/** Options for {@linkcode useFakeSkipper}. */
export interface FakeSkipperOptions {
  /** `[skiff_agent] enabled` (default true). */
  enabled?: boolean;
  /** `[skiff_agent] agent` (default `fake`). */
  agent?: string;
  /** The fake agent's `continue_args` (default: none, like most custom agents). */
  continueArgs?: string;
  /** More `[skiff_agent]` lines. */
  settings?: string[];
  /** More TOML after everything else. */
  extra?: string;
}

/** The file the fake agent's wrapper writes one line to on each start: `start ARGS…`. */
export function startLog(skiff: SkiffEnv): string {
  return join(skiff.root, "starts.log");
}

/** The starts logged so far. */
export async function starts(skiff: SkiffEnv): Promise<string[]> {
  try {
    return (await Deno.readTextFile(startLog(skiff))).split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Writes projects.toml with the fake agent declared as `[agents.fake]` and
 * chosen as the Skiff agent. The agent starts through a wrapper script that
 * logs its arguments, so tests can count starts.
 */
export async function useFakeSkipper(
  skiff: SkiffEnv,
  options: FakeSkipperOptions = {},
): Promise<void> {
  const wrapper = join(skiff.root, "fake-agent.sh");
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\necho "start $*" >> '${
      startLog(skiff)
    }'\nexec '${Deno.execPath()}' run -A -q '${FAKE_AGENT}' "$@"\n`,
    { mode: 0o755 },
  );
  await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
  const toml = [
    "[daemon]",
    "turn_start_seconds = 3",
    "",
    "[skiff_agent]",
    `enabled = ${options.enabled ?? true}`,
    `agent = "${options.agent ?? "fake"}"`,
    ...(options.settings ?? []),
    "",
    ...fakeAgentToml({ command: wrapper }),
    ...(options.continueArgs ? [`continue_args = "${options.continueArgs}"`] : []),
    options.extra ?? "",
  ].join("\n");
  await Deno.writeTextFile(skiff.configFile, toml + "\n");
}

/** The argv of `skiff skipper ARGS…`, for a test terminal. */
export function skipperArgv(...args: string[]): string[] {
  return [Deno.execPath(), "run", "-A", "-q", MAIN, "skipper", ...args];
}

/** Runs `skiff skipper` in a real terminal. */
export async function skipperTerminal(skiff: SkiffEnv): Promise<TestTerminal> {
  return await TestTerminal.start(skipperArgv(), {
    env: skiff.env,
    cwd: skiff.env.HOME,
    cols: 100,
    rows: 30,
  });
}

/** Opens the Skiff agent without attaching: `skiff skipper --json`. */
export async function openJson(skiff: SkiffEnv): Promise<OpenJson> {
  return await skiff.json<OpenJson>(["skipper"]);
}

/** Every pane. */
export async function allPanes(skiff: SkiffEnv): Promise<PaneInfo[]> {
  return (await skiff.json<{ panes: PaneInfo[] }>(["ls"])).panes;
}

/** The marks of the session of `pane`. */
export async function marksOf(skiff: SkiffEnv, pane: string): Promise<Record<string, string>> {
  return (await skiff.json<{ marks: Record<string, string> }>(["mark", pane])).marks;
}

/** The default folder of the Skiff agent in the test's HOME. */
export function skipperDir(skiff: SkiffEnv): string {
  return join(skiff.env.HOME, "skiff-agent");
}
