/**
 * Opening the Skiff agent: check the settings and the folder, set the folder
 * up, find or make its session in skiffd (one request, so opens at the same
 * time make one session), and start the agent when the session is a bare
 * shell. `skiff skipper` then attaches; the app shows the pane.
 *
 * @module
 */

import type { DaemonClient } from "../client/client.ts";
import { connectDaemon } from "../client/connect.ts";
import { clientEnv } from "../client/env.ts";
import { agentFolder, type Config, loadConfig } from "../config/config.ts";
import { SkiffError } from "../errors.ts";
import { which } from "../platform/shell.ts";
import type { AgentProfile } from "../agents/mod.ts";
import { bareShellProblem } from "../agents/bare_shell.ts";
import type { PaneInfo } from "../protocol/panes.ts";
import type { EnsureHow, EnsureSessionResult } from "../protocol/session_ensure.ts";
import type { SessionMarks } from "../protocol/sessions.ts";
import type { WatcherHealth } from "../protocol/watch.ts";
import { checkFolder, refusalLine } from "./folder.ts";
import {
  SKIFF_AGENT_MARK,
  SKIFF_AGENT_MARK_VALUE,
  START_GUARD_MS,
  START_LINE_MARK,
} from "./marks.ts";
import { setUpFolder } from "./setup.ts";
import { installSkill, skillCopyDir } from "./skill.ts";
import { skiffAgentProfile, startLine } from "./start_line.ts";

/** What an open did about starting the agent. */
export interface StartOutcome {
  /** The line typed: the agent's start line, its continue line, or none. */
  typed: "start" | "continue" | null;
  /** Why nothing was typed, when nothing was. */
  why: string | null;
  /** How long the open waited for the start-line guard of the same shell (ms); 0 when it did not. */
  waited_ms?: number;
}

/** What {@linkcode openSkiffAgent} did. */
export interface OpenOutcome {
  /** Whether the session was found, adopted or made. */
  how: EnsureHow;
  /** The session. */
  session: SessionMarks;
  /** Its pane, as it was before anything was typed. */
  pane: PaneInfo;
  /** The agent the Skiff agent runs. */
  agent: string;
  /** The Skiff agent's folder. */
  folder: string;
  /** Whether a start line was typed. */
  start: StartOutcome;
  /** The watcher's health right after the open. */
  watcher: WatcherHealth;
}

/** Options for {@linkcode openSkiffAgent}. */
export interface OpenSkiffAgentOptions {
  /** The config; read from `projects.toml` by default. */
  config?: Config;
  /** A connection to skiffd; by default one is made, starting skiffd when it does not run. */
  client?: DaemonClient;
}

/** The error for a Skiff agent that is off. */
export function offError(): SkiffError {
  return new SkiffError(
    "The Skiff agent is off. Turn it on with 'skiff settings set enabled true'",
    { exit: "CONFLICT" },
  );
}

/** The error for an agent whose program is not on the PATH. */
function missingAgentError(profile: AgentProfile): SkiffError {
  return new SkiffError(
    `Cannot start the Skiff agent: ${profile.label} ('${profile.command}') is not on the PATH. Install it, or pick another agent with 'skiff settings set agent ID' (see 'skiff agents')`,
    { exit: "NOT_FOUND", details: { program: profile.command } },
  );
}

/** A pane name made from the agent's name. */
export function paneNameFor(name: string): string {
  const cleaned = name.trim().replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return cleaned.slice(0, 64) || "Skipper";
}

/**
 * Checks that the Skiff agent's folder can be used, then sets it up and
 * refreshes Skiff's copy of the skill. Returns the folder.
 */
export function prepareFolder(config: Config): string {
  const folder = agentFolder(config);
  const check = checkFolder(folder, config);
  if (!check.usable) {
    throw new SkiffError(refusalLine(check), { exit: "USAGE", details: { folder } });
  }
  installSkill();
  setUpFolder(folder, { name: config.skiffAgent.name, skillDir: skillCopyDir() });
  return folder;
}

/**
 * Opens the Skiff agent: its session is found, adopted or made, and a bare
 * shell gets the start line. Throws exit `CONFLICT` when the Skiff agent is
 * off, `USAGE` when its folder cannot be used, `NOT_FOUND` for an unknown
 * agent, `DAEMON` when skiffd cannot be started.
 */
export async function openSkiffAgent(options: OpenSkiffAgentOptions = {}): Promise<OpenOutcome> {
  const config = options.config ?? loadConfig();
  if (!config.skiffAgent.enabled) throw offError();
  // Everything that can be refused is checked before the folder is touched.
  const profile = skiffAgentProfile(config);
  const folder = prepareFolder(config);
  const name = paneNameFor(config.skiffAgent.name);
  const env = clientEnv();
  // The pane's shell gets this PATH, so an agent missing here would only say 'command not found' there.
  const missing = which(profile.command, env.PATH ?? "") ? null : missingAgentError(profile);
  const client = options.client ?? await connectDaemon();
  try {
    const ensured = await client.call("session.ensure", {
      mark: { key: SKIFF_AGENT_MARK, value: SKIFF_AGENT_MARK_VALUE },
      adopt: { name, cwd: folder, agent: profile.id },
      // The pane gets the opener's PATH and session variables, as `skiff new` gives.
      // Without the agent's program, a running session may still be opened, but none is made.
      create: missing ? undefined : { cwd: folder, name, session: name, client_env: env },
    }).catch((error) => {
      throw missing && error instanceof SkiffError && error.exit === "NOT_FOUND" ? missing : error;
    });
    const start = await startIfBare(client, ensured, {
      profile,
      continue: ensured.how !== "created" && config.skiffAgent.continueOnRestore,
      missing,
    });
    return {
      how: ensured.how,
      session: ensured.session,
      pane: ensured.pane,
      agent: profile.id,
      folder,
      start,
      watcher: await client.call("watch.status"),
    };
  } finally {
    if (!options.client) client.close();
  }
}

/** Why the pane is not a bare shell at its prompt, or `undefined` when it is. */
function notBare(pane: PaneInfo, profile: AgentProfile): string | undefined {
  return bareShellProblem(pane, profile);
}

/**
 * How long the start-line guard of `mark` still holds for the shell of
 * generation `generation`, in ms (0: it does not). The guard belongs to the
 * shell the line was typed into: a restored pane's new shell (another
 * generation) is not guarded by a line typed into the old one. A mark from
 * an older Skiff names no generation and guards whatever shell is there.
 */
export function guardLeft(mark: string | null, generation: number, now = Date.now()): number {
  if (mark === null) return 0;
  const [stamp, of] = mark.split("@");
  if (of !== undefined && Number(of) !== generation) return 0;
  const since = now - Number(stamp);
  return since >= 0 && since < START_GUARD_MS ? START_GUARD_MS - since : 0;
}

/** The value of {@linkcode START_LINE_MARK} for a line typed now into the shell of `generation`. */
export function startLineMark(generation: number, now = Date.now()): string {
  return `${now}@${generation}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Types the start line into a bare shell, unless a person typed since the
 * check. The time of the line (and the shell's generation) is claimed on the
 * session's marks first, so two opens at once cannot both type. For
 * {@linkcode START_GUARD_MS} after a start line went into the same shell,
 * an open waits the guard out, checks again, and types the line only if the
 * shell is still bare (the agent did not start, or quit).
 */
async function startIfBare(
  client: DaemonClient,
  ensured: EnsureSessionResult,
  options: { profile: AgentProfile; continue: boolean; missing: SkiffError | null },
): Promise<StartOutcome> {
  const none = (why: string, waited = 0): StartOutcome => ({
    typed: null,
    why,
    waited_ms: waited,
  });
  const idle = notBare(ensured.pane, options.profile);
  if (idle) return none(idle);
  if (options.missing) return none(options.missing.message);
  let previous = ensured.session.marks[START_LINE_MARK] ?? null;
  let waited = 0;
  const guard = guardLeft(previous, ensured.pane.generation);
  if (guard > 0) {
    const started = Date.now();
    await sleep(guard);
    waited = Date.now() - started;
  }
  // Read the state and the person's keystroke count together, then send against that count.
  const explain = await client.call("pane.explain", { pane: ensured.pane.id });
  const stillIdle = notBare(explain, options.profile);
  if (stillIdle) return none(stillIdle, waited);
  if (waited > 0) {
    // Another open may have typed a line while this one waited.
    previous = explain.session_marks[START_LINE_MARK] ?? null;
    const again = guardLeft(previous, explain.generation);
    if (again > 0) {
      return none(
        `a start line went in ${Math.round((START_GUARD_MS - again) / 1000)} s ago`,
        waited,
      );
    }
  }
  const stamp = startLineMark(explain.generation);
  const session = ensured.session.session;
  try {
    await client.call("session.mark", {
      session,
      key: START_LINE_MARK,
      value: stamp,
      expect: previous,
    });
  } catch (error) {
    if (error instanceof SkiffError && error.exit === "CONFLICT") {
      return none("another open is starting the agent", waited);
    }
    throw error;
  }
  const line = startLine(options.profile, { continue: options.continue });
  try {
    await client.call("pane.send", {
      pane: ensured.pane.id,
      text: line.line,
      enter: true,
      any: true,
      since_inputs: explain.person_inputs,
    });
  } catch (error) {
    if (!(error instanceof SkiffError)) throw error;
    // Nothing went in: give the claim back, so the next open may try.
    await client.call("session.mark", {
      session,
      key: START_LINE_MARK,
      value: previous,
      expect: stamp,
    }).catch(() => {});
    return none(error.message, waited);
  }
  return { typed: line.continues ? "continue" : "start", why: null, waited_ms: waited };
}
