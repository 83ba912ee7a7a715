/**
 * Declares the fake agent (tests/fixtures/fake_agent.ts) as a custom agent
 * in a test's projects.toml, so Skiff recognises it and reads its screen.
 *
 * @module
 */

import { dirname } from "node:path";
import { MAIN, type SkiffEnv } from "./skiff.ts";

/** The fake agent's script. */
export const FAKE_AGENT = new URL("../fixtures/fake_agent.ts", import.meta.url).pathname;

/** The shell command prefix that runs this checkout's `skiff hook fake`. */
export function hookPrefix(): string {
  return `${Deno.execPath()} run -A -q ${MAIN} hook fake`;
}

/** Options for {@linkcode fakeAgentToml}. */
export interface FakeAgentTomlOptions {
  /** The command that starts the agent (default: the fake agent under this Deno). */
  command?: string;
  /** The agent's Enter delay (default 150 ms). */
  enterDelayMs?: number;
  /** Its profile names its own state reports (OSC 7501, `app=fake`; see `FAKE_REPORT_MS`). */
  reports?: boolean;
}

/** The `[agents.fake]` table as lines of projects.toml: the fake agent's profile, the one source for tests and benches. */
export function fakeAgentToml(options: FakeAgentTomlOptions = {}): string[] {
  return [
    "[agents.fake]",
    'label = "Fake Agent"',
    `command = "${options.command ?? `${Deno.execPath()} run -A -q ${FAKE_AGENT}`}"`,
    'match = ["fake_agent.ts"]',
    'busy = ["esc to interrupt"]',
    'approval = ["Do you want to proceed\\\\?", "Enter to confirm · Esc to cancel", "Press any key to answer"]',
    'prompt = "^> ?(.*)$"',
    'frame = "^─{10,}"',
    'continuation = "^  \\\\S"',
    'placeholders = ["^Type a task$"]',
    'title_busy = ["^fake: busy"]',
    `enter_delay_ms = ${options.enterDelayMs ?? 150}`,
    ...(options.reports ? ['status_app = "fake"'] : []),
    'resume_args = ["--session", "{id}"]',
    'resume_new_args = ["--session-id", "{id}"]',
    'resume_record = "${FAKE_STORE:-~/.fake-agent}/{id}.txt"',
  ];
}

/** Options for {@linkcode useFakeAgent}. */
export interface FakeAgentOptions {
  /** The agent's Enter delay. */
  enterDelayMs?: number;
  /** Its profile names its own state reports (see {@linkcode FakeAgentTomlOptions.reports}). */
  reports?: boolean;
  /** `[daemon] turn_start_seconds`. */
  turnStartSeconds?: number;
  /** More TOML to append. */
  extra?: string;
}

/** Writes projects.toml with the fake agent declared as `[agents.fake]`. */
export async function useFakeAgent(skiff: SkiffEnv, options: FakeAgentOptions = {}): Promise<void> {
  await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
  const toml = [
    "[daemon]",
    `turn_start_seconds = ${options.turnStartSeconds ?? 3}`,
    "",
    ...fakeAgentToml({ enterDelayMs: options.enterDelayMs, reports: options.reports }),
    options.extra ?? "",
  ].join("\n");
  await Deno.writeTextFile(skiff.configFile, toml + "\n");
}

/** Where and how {@linkcode newFakeAgentArgs} starts the fake agent. */
export interface FakePaneOptions {
  /** The host of projects.toml it runs on (default: this machine). */
  host?: string;
  /** The folder it works in. */
  cwd?: string;
  /** Its environment variables (`FAKE_TURN_MS`, `FAKE_LOG`, …), in this order. */
  env?: Record<string, string>;
  /** More arguments of `skiff new`. */
  extra?: string[];
}

/** The arguments of `skiff new` that start the fake agent in a pane named `name`. */
export function newFakeAgentArgs(name: string, options: FakePaneOptions = {}): string[] {
  return [
    "new",
    ...(options.host === undefined ? [] : ["--host", options.host]),
    "--agent",
    "fake",
    "--name",
    name,
    ...(options.cwd === undefined ? [] : ["--cwd", options.cwd]),
    ...Object.entries(options.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]),
    ...(options.extra ?? []),
  ];
}

/** Starts the fake agent in a pane named `name` and waits until it is idle. */
export async function startFakeAgent(
  skiff: SkiffEnv,
  name: string,
  options: FakePaneOptions = {},
): Promise<void> {
  await skiff.ok(newFakeAgentArgs(name, options));
  await skiff.ok(["wait", name, "--until", "idle", "--timeout", "30"]);
}

/** The prompts the fake agent got so far, from the file its `FAKE_LOG` names (one JSON string a line). */
export async function loggedPrompts(log: string): Promise<string[]> {
  try {
    return (await Deno.readTextFile(log)).split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
