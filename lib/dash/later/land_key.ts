/**
 * The dashboard's `L`: landing the selected pane's worktree as `skiff land`
 * does. A dry run first finds what would land; the status row then asks,
 * naming the branch, the base and the commit count, and `y` lands. The
 * landing runs while the dashboard goes on (keys and frames), and its
 * outcome takes the status row: the range that landed, the conflicting
 * files, the check's last line, or the refusal's one line. The words are
 * the app's too (`lib/overview/landing.ts`).
 *
 * @module
 */

import {
  hasWorkToLand,
  landOutcome,
  landQuestion,
  landRefusal,
  nothingToLand,
} from "../../overview/landing.ts";
import { SkiffError } from "../../errors.ts";
import type { LandRefusalDetails } from "../../protocol/land.ts";
import type { ListedPane } from "../../protocol/workspace.ts";
import type { Key } from "../input/mod.ts";
import { type DashActions, failure, label, type Prompt, say, startPrompt } from "../model/mod.ts";

/** A landing's refusal (or any failure) in its one line. */
function refusalLine(error: unknown): string {
  if (error instanceof SkiffError) {
    return landRefusal(error.message, error.details as Partial<LandRefusalDetails>);
  }
  return failure(error);
}

/** `L` on `pane`: a dry run, then the question on the status row. */
export async function landKey(actions: DashActions, pane: ListedPane): Promise<void> {
  const state = actions.state;
  if (state.landing) {
    const busy = state.view?.panes.find((p) => p.id === state.landing);
    return say(state, `L: a landing of ${busy ? label(busy) : state.landing} is under way`);
  }
  if (pane.id.includes(":")) {
    const colon = pane.id.indexOf(":");
    return say(
      state,
      `L: lands this machine's panes only: run 'skiff land ${pane.id.slice(colon + 1)}' on ${
        pane.id.slice(0, colon)
      }`,
    );
  }
  if (!pane.worktree) {
    return say(state, `L: ${label(pane)} has no worktree ('skiff new --worktree' makes one)`);
  }
  say(state, `Looking at what landing ${pane.worktree.branch} would do…`);
  actions.redraw();
  let dry;
  try {
    dry = await actions.land(pane.id, { dryRun: true });
  } catch (error) {
    return say(state, `L: ${refusalLine(error)}`, "error");
  }
  if (!hasWorkToLand(dry)) return say(state, nothingToLand(dry));
  startPrompt(state, {
    kind: "land",
    label: `${landQuestion(dry)} y/n `,
    text: "",
    pane: pane.id,
    answers: { branch: dry.worktree.branch, base: dry.base.name },
  });
}

/** The answer to the question `L` asked: `y` lands, any other key keeps the branch as it is. */
export function landAnswer(actions: DashActions, prompt: Prompt, key: Key): void {
  const state = actions.state;
  state.prompt = null;
  const branch = prompt.answers?.branch ?? "the branch";
  const base = prompt.answers?.base ?? "the base";
  if (!(key.name === "char" && (key.char === "y" || key.char === "Y"))) {
    return say(state, `Not landed: ${branch} is as it was`);
  }
  const pane = prompt.pane!;
  state.landing = pane;
  say(state, `Landing ${branch} onto ${base}…`);
  actions.land(pane, {
    dryRun: false,
    progress: (line) => {
      say(state, `Landing ${branch} onto ${base}: ${line}`);
      actions.redraw();
    },
  }).then(
    (result) => say(state, landOutcome(result)),
    (error) => say(state, refusalLine(error), "error"),
  ).finally(() => {
    state.landing = null;
    actions.relist();
    actions.redraw();
  });
}
