/**
 * The methods skiffd answers. Each one checks its params, does one thing,
 * and returns a JSON-able result or throws a {@linkcode SkiffError}.
 *
 * @module
 */

import { SkiffError } from "../../errors.ts";
import { projectAt } from "../../config/projects.ts";
import { encodeKeys } from "../../screen/keys.ts";
import { AGENT_METHODS } from "./agent_methods.ts";
import { ENSURE_METHODS } from "./ensure_methods.ts";
import { WATCH_METHODS } from "./watch_methods.ts";
import { WORKSPACE_METHODS } from "./workspace_methods.ts";
import {
  newPaneInWorktree,
  WORKTREE_METHODS,
  worktreeAtCwd,
  worktreeParams,
} from "./worktree_methods.ts";
import type { ServiceMethodName } from "../../protocol/app.ts";
import type { MethodName } from "../../protocol/methods.ts";
import type { MethodTable } from "./method_types.ts";
import { clampSize } from "../panes/mod.ts";
import { upgradeRequest } from "./upgrade_request.ts";
import { MAX_SIZE, newPaneRequest, paneSize as size, withAgent } from "./new_pane_params.ts";
import {
  flag,
  maybeCursor,
  maybeInt,
  maybeMark,
  maybeString,
  maybeStrings,
  needInt,
  needMarkKey,
  needString,
} from "./params.ts";

/**
 * Every method by name, except `hello`, which the server answers itself, and
 * the service methods, which the services skiffd was given answer.
 */
export const METHODS: MethodTable<Exclude<MethodName, "hello" | ServiceMethodName>> = {
  ...AGENT_METHODS,
  ...ENSURE_METHODS,
  ...WATCH_METHODS,
  ...WORKTREE_METHODS,
  ...WORKSPACE_METHODS,
  "daemon.status": (_params, ctx) => ctx.control.status(),

  "daemon.stop": (params, ctx) => {
    const restart = flag(params, "restart");
    ctx.afterReply(() => ctx.control.stop({ restart }));
    return { stopping: true };
  },

  "daemon.upgrade": (params, ctx) => ctx.control.upgrade(upgradeRequest(params)),

  "daemon.reload": (_params, ctx) => {
    const result = ctx.control.reload();
    ctx.afterReply(() => ctx.control.dropClients());
    return result;
  },

  "pane.new": async (params, ctx) => {
    const request = withAgent(newPaneRequest(params), params);
    const worktree = worktreeParams(params);
    const projectAtFolder = maybeString(params, "project_at");
    if (projectAtFolder !== undefined && request.project === undefined && !request.session) {
      request.project = projectAt(ctx.workspace.config, projectAtFolder)?.name;
    }
    if (worktree) {
      const made = await newPaneInWorktree(ctx, request, worktree);
      const info = ctx.workspace.info(made.pane);
      return made.reopened ? { ...info, worktree_reopened: true } : info;
    }
    // A pane started by hand in a worktree's folder is that worktree's, when no other pane holds it.
    const pane = await ctx.workspace.newPane({
      ...request,
      worktree: worktreeAtCwd(ctx, request.cwd),
    });
    return ctx.workspace.info(pane);
  },

  "pane.list": (params, ctx) => {
    const mark = maybeMark(params, "mark");
    ctx.workspace.refreshCwds();
    const panes = ctx.workspace.panes.map((p) => ctx.workspace.info(p));
    if (!mark) return { panes };
    return {
      panes: panes.filter((p) =>
        Object.hasOwn(p.session_marks, mark.key) &&
        (mark.value === undefined || p.session_marks[mark.key] === mark.value)
      ),
    };
  },

  "pane.get": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    return ctx.workspace.info(pane);
  },

  "pane.capture": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const options = {
      ansi: flag(params, "ansi"),
      scrollback: maybeInt(params, "scrollback", 0, 1_000_000) ?? 0,
    };
    return {
      pane: pane.id,
      name: pane.name,
      generation: pane.saved.generation,
      text: pane.screen.capture(options),
      ...pane.screen.snapshot(options),
    };
  },

  "pane.keys": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const keys = maybeStrings(params, "keys") ?? [];
    const data = encodeKeys(keys, {
      literal: flag(params, "literal"),
      modes: { applicationCursorKeys: pane.screen.applicationCursorKeys },
    });
    const bytes = new TextEncoder().encode(data);
    if (!pane.input(bytes, "program")) {
      throw new SkiffError(`Pane '${pane.name}' is not running`, { exit: "NOT_RUNNING" });
    }
    return { pane: pane.id, bytes: bytes.length };
  },

  "pane.rename": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    ctx.workspace.rename(pane, needString(params, "name"));
    return ctx.workspace.info(pane);
  },

  "pane.kill": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const info = ctx.workspace.info(pane);
    ctx.workspace.kill(pane);
    return info;
  },

  "pane.resize": (params, ctx) => {
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    const wanted = clampSize(
      needInt(params, "cols", 2, MAX_SIZE),
      needInt(params, "rows", 2, MAX_SIZE),
    );
    const changed = pane.resize(wanted.cols, wanted.rows);
    if (changed) {
      ctx.events.emit("resized", {
        pane: pane.id,
        name: pane.name,
        generation: pane.saved.generation,
        cols: pane.saved.cols,
        rows: pane.saved.rows,
      });
      ctx.workspace.save();
    }
    return ctx.workspace.info(pane);
  },

  "session.get": (params, ctx) => {
    const session = ctx.workspace.records.resolveSession(needString(params, "session"));
    return { session: session.id, name: session.name, marks: session.marks };
  },

  "session.mark": (params, ctx) => {
    const session = ctx.workspace.records.resolveSession(needString(params, "session"));
    const key = needMarkKey(params, "key");
    const value = params.value === null ? null : maybeString(params, "value") ?? "";
    if (params.expect !== undefined) {
      const expect = params.expect === null ? null : maybeString(params, "expect") ?? "";
      const current = session.marks[key] ?? null;
      if (current !== expect) {
        throw new SkiffError(
          `Mark '${key}' of session '${session.name}' is ${
            current === null ? "not set" : `'${current}'`
          }, not ${expect === null ? "unset" : `'${expect}'`}`,
          { exit: "CONFLICT", details: { session: session.id, key, value: current } },
        );
      }
    }
    ctx.workspace.mark(session, key, value);
    return { session: session.id, name: session.name, marks: session.marks };
  },

  "events.subscribe": (params, ctx) => {
    const after = maybeCursor(params, "after");
    const cursor = ctx.events.cursor();
    ctx.afterReply(() =>
      ctx.connection.startEvents((sink) => ctx.events.subscribe(sink, { after }))
    );
    return { subscribed: true as const, ...cursor };
  },

  "attach": (params, ctx) => {
    // A terminal told that skiffd restarts must find the next skiffd, not this one.
    if (ctx.workspace.stopping) throw new SkiffError("skiffd is stopping", { exit: "DAEMON" });
    const pane = ctx.workspace.resolvePane(needString(params, "pane"));
    if (pane.status !== "running") {
      throw new SkiffError(`Pane '${pane.name}' is not running`, { exit: "NOT_RUNNING" });
    }
    const { cols, rows } = size(params);
    const resize = (width: number, height: number) => {
      // A terminal smaller than a pane can be never shrinks it: it sees the top-left part.
      const { cols: c, rows: r } = clampSize(width, height);
      if (pane.resize(c, r)) {
        ctx.events.emit("resized", {
          pane: pane.id,
          name: pane.name,
          generation: pane.saved.generation,
          cols: c,
          rows: r,
        });
      }
    };
    const watch = flag(params, "watch");
    // The pane follows the terminal in use (tmux's `window-size latest`): the one
    // that attached, typed or changed size last. One that knows no size leaves it be,
    // and a watching terminal (a preview) follows the output only: no size, no input.
    let terminal = cols && rows && !watch ? { cols, rows } : undefined;
    if (terminal && params.take_size !== false) resize(terminal.cols, terminal.rows);
    const scrollback = maybeInt(params, "scrollback", 0, 100_000) ?? 0;
    const info = ctx.workspace.info(pane);
    ctx.afterReply(() =>
      ctx.connection.startAttach(
        pane,
        watch ? { input: () => {}, resize: () => {} } : {
          input: (data) => {
            if (terminal) resize(terminal.cols, terminal.rows);
            pane.input(data, "person");
          },
          resize: (width, height) => {
            terminal = { cols: width, rows: height };
            resize(width, height);
          },
        },
        { scrollback, watch },
      )
    );
    // A person's terminal (not a preview) has seen the pane once it leaves.
    if (!watch) ctx.connection.onClose(() => ctx.workspace.watches.personLeft(pane));
    return info;
  },
};
