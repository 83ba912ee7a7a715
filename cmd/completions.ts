/**
 * `skiff completions`: print a shell completion script.
 *
 * @module
 */

import { defineCommand } from "../lib/cli/mod.ts";
import { completionScript, SHELLS } from "../lib/cli/complete.ts";
import { selfCommand } from "../lib/platform/spawn_self.ts";
import { shellLine } from "../lib/platform/shell.ts";

/** The `completions` command. */
export const command = defineCommand({
  name: "completions",
  summary: "Print a shell completion script (bash, zsh or fish)",
  description:
    "Print the completion script for SHELL. It completes commands, options, and pane, session, project, agent and task names (asking a running skiffd; it never starts one). bash: add 'source <(skiff completions bash)' to ~/.bashrc. zsh: add 'source <(skiff completions zsh)' to ~/.zshrc. fish: 'skiff completions fish > ~/.config/fish/completions/skiff.fish'.",
  args: [{ name: "SHELL", required: true, choices: SHELLS, complete: "shell" }],
  examples: ["source <(skiff completions bash)"],
  run: (ctx) => {
    const shell = ctx.args.SHELL as typeof SHELLS[number];
    const self = selfCommand(["__complete", "--"]);
    const script = completionScript(shell, shellLine([self.program, ...self.args]));
    ctx.out.result({ shell, script }, () => ctx.out.line(script.trimEnd()));
  },
});
