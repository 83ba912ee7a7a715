/**
 * The prompt on the status row: editing its line (the filter narrows the
 * list as it is typed), and what Enter does for each prompt: send, rename,
 * kill, and the questions that make a new pane (its project, agent, a
 * worktree when the project is in a Git repository, and its name).
 *
 * @module
 */

import type { Key } from "../input/mod.ts";
import { inRepository } from "../../worktree/mod.ts";
import {
  attempt,
  type DashActions,
  type DashState,
  label,
  type Prompt,
  say,
  startPrompt,
} from "../model/mod.ts";
import { landAnswer } from "./land_key.ts";

/** Handles a key while a prompt is open. */
export async function promptKey(actions: DashActions, key: Key): Promise<void> {
  const state = actions.state;
  const prompt = state.prompt!;
  if (prompt.kind === "land") return landAnswer(actions, prompt, key);
  if (prompt.kind === "kill") {
    state.prompt = null;
    const pane = state.view?.panes.find((p) => p.id === prompt.pane);
    if (!pane) return say(state, "The pane is gone already");
    if (key.name === "char" && (key.char === "y" || key.char === "Y")) {
      await attempt(actions, async () => {
        await actions.call("pane.kill", { pane: pane.id });
        return `Killed ${label(pane)}`;
      });
    } else {
      say(state, `Kept ${label(pane)}`);
    }
    return;
  }
  if (key.name === "escape" || key.name === "ctrl-c") {
    if (prompt.kind === "filter") state.filter = "";
    state.prompt = null;
    return;
  }
  if (key.name === "backspace") {
    prompt.text = [...prompt.text].slice(0, -1).join("");
  } else if (key.name === "ctrl-u") {
    prompt.text = "";
  } else if (key.name === "ctrl-w") {
    prompt.text = prompt.text.replace(/\S*\s*$/, "");
  } else if (key.name === "char") {
    prompt.text += key.char;
  } else if (key.name === "paste") {
    // One line: a pasted newline becomes a space.
    prompt.text += key.text.replace(/\r\n|\r|\n/g, " ");
  } else if (key.name === "enter") {
    state.prompt = null;
    await submit(actions, prompt);
    return;
  }
  if (prompt.kind === "filter") state.filter = prompt.text;
}

/** The last question of a new pane: its name (by default the worktree's, else the agent's, else one made up). */
function newName(state: DashState, answers: Record<string, string>): void {
  startPrompt(state, {
    kind: "new-name",
    // The name a pane gets when none is typed, as `skiff new` names it: its worktree's, else its
    // agent's, else one made up from its command.
    label: `New pane: name (Enter for ${answers.worktree || answers.agent || "one made up"}): `,
    text: "",
    answers,
  });
}

async function submit(actions: DashActions, prompt: Prompt): Promise<void> {
  const state = actions.state;
  const text = prompt.text.trim();
  switch (prompt.kind) {
    case "filter":
      state.filter = text;
      return;
    case "send": {
      if (text === "") return say(state, "Nothing sent: the line was empty");
      const pane = state.view?.panes.find((p) => p.id === prompt.pane);
      say(state, `Sending to ${pane ? label(pane) : prompt.pane}…`);
      actions.relist();
      await attempt(actions, async () => {
        const result = await actions.call("pane.send", {
          pane: prompt.pane!,
          text,
          enter: true,
        });
        return `Sent to ${result.name} (${result.pane}); ${
          result.turn_started ? "a turn started" : "Enter pressed"
        }`;
      });
      return;
    }
    case "rename": {
      if (text === "") return say(state, "Not renamed: the name was empty");
      await attempt(actions, async () => {
        const pane = await actions.call("pane.rename", { pane: prompt.pane!, name: text });
        return `Renamed to ${pane.name}`;
      });
      return;
    }
    case "new-project": {
      const { agents } = actions.choices();
      return startPrompt(state, {
        kind: "new-agent",
        label: `New pane: agent (Enter for a shell; ${agents.join(", ")}): `,
        text: "",
        answers: { project: text },
      });
    }
    case "new-agent": {
      const answers: Record<string, string> = { ...prompt.answers, agent: text };
      // As `skiff new --worktree`: a project in a Git repository can start the pane in a
      // worktree of its own.
      const root = state.view?.projects.find((p) => p.name === answers.project)?.root;
      if (root !== undefined && await inRepository(root)) {
        return startPrompt(state, {
          kind: "new-worktree",
          label: `New pane: worktree of ${answers.project}'s repository (Enter for none): `,
          text: "",
          answers,
        });
      }
      return newName(state, answers);
    }
    case "new-worktree":
      return newName(state, { ...prompt.answers!, worktree: text });
    case "new-name":
      await attempt(actions, async () => {
        const pane = await actions.newPane({ ...prompt.answers, name: text });
        await actions.relist();
        state.selected = pane.id;
        return `Made ${label(pane)}`;
      });
      return;
    default:
      return;
  }
}
