/**
 * `session.ensure`: find the session that carries a mark, else adopt a
 * matching unmarked one, else make one that carries the mark. Requests run
 * one after another, so concurrent callers never make two sessions.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import type { EnsureSessionResult, SessionEnsureMethods } from "../../protocol/session_ensure.ts";
import type { LiveWorkspace } from "../workspace/mod.ts";
import type { MethodTable } from "./method_types.ts";
import { newPaneRequest } from "./new_pane_params.ts";
import { needMarkKey, needString, type Params } from "./params.ts";
import type { Pane } from "../panes/mod.ts";
import type { SavedSession } from "../records/mod.ts";

/** The last ensure of each workspace; the next one waits for it. */
const queues = new WeakMap<LiveWorkspace, Promise<unknown>>();

function serialised<T>(workspace: LiveWorkspace, work: () => Promise<T>): Promise<T> {
  const before = queues.get(workspace) ?? Promise.resolve();
  const next = before.catch(() => {}).then(work);
  queues.set(workspace, next);
  return next;
}

function record(params: Params, key: string): Params {
  const value = params[key];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SkiffError(`Bad request: '${key}' must be an object`, { exit: "USAGE" });
  }
  return value as Params;
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function panesOf(workspace: LiveWorkspace, session: SavedSession): Pane[] {
  return workspace.panes.filter((p) => p.saved.session === session.id);
}

/** An unmarked session with a running pane that matches `adopt`, and that pane. */
function adoptable(
  workspace: LiveWorkspace,
  key: string,
  adopt: Params,
): { session: SavedSession; pane: Pane } | undefined {
  const name = needString(adopt, "name");
  const agent = needString(adopt, "agent");
  const cwd = realPath(needString(adopt, "cwd"));
  if (cwd === undefined) return undefined;
  workspace.refreshCwds();
  for (const session of workspace.sessions) {
    if (key in session.marks) continue;
    for (const pane of panesOf(workspace, session)) {
      if (pane.name !== name || pane.status !== "running") continue;
      if (realPath(pane.saved.cwd) !== cwd) continue;
      workspace.watchOf(pane).evaluate();
      if (workspace.info(pane).agent === agent) return { session, pane };
    }
  }
  return undefined;
}

async function ensure(params: Params, workspace: LiveWorkspace): Promise<EnsureSessionResult> {
  const mark = record(params, "mark");
  const key = needMarkKey(mark, "key");
  const value = needString(mark, "value");
  const create = params.create === undefined || params.create === null
    ? undefined
    : newPaneRequest(record(params, "create"));
  const replaced: string[] = [];
  const answer = (how: EnsureSessionResult["how"], session: SavedSession, pane: Pane) => ({
    how,
    session: { session: session.id, name: session.name, marks: session.marks },
    pane: workspace.info(pane),
    replaced,
  });

  const marked = workspace.sessions.find((s) => s.marks[key] === value);
  const exited = marked ? panesOf(workspace, marked) : [];
  const running = exited.find((p) => p.status === "running");
  if (marked && running) return answer("found", marked, running);
  // A marked session whose panes all exited can no longer be opened, so it is replaced.
  const replaceExited = () => {
    for (const pane of exited) {
      replaced.push(pane.id);
      workspace.kill(pane);
    }
  };

  if (params.adopt !== undefined && params.adopt !== null) {
    const found = adoptable(workspace, key, record(params, "adopt"));
    if (found) {
      replaceExited();
      workspace.mark(found.session, key, value);
      return answer("adopted", found.session, found.pane);
    }
  }

  if (!create) {
    throw new SkiffError(`No running session carries the mark ${key}=${value}`, {
      exit: "NOT_FOUND",
    });
  }
  replaceExited();
  const name = workspace.records.uniquePaneName(create.name ?? "pane");
  const sessionName = workspace.records.uniqueSessionName(create.session ?? name);
  const pane = await workspace.newPane({
    ...create,
    name,
    session: sessionName,
    marks: { [key]: value },
  });
  const session = workspace.sessions.find((s) => s.id === pane.saved.session)!;
  return answer("created", session, pane);
}

/** The `session.ensure` method. */
export const ENSURE_METHODS: MethodTable<keyof SessionEnsureMethods> = {
  "session.ensure": (params, ctx) => serialised(ctx.workspace, () => ensure(params, ctx.workspace)),
};
