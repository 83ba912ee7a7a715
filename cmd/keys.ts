/**
 * `skiff keys`: type keys into a pane.
 *
 * @module
 */

import { arg, args, type CommandSpec, optBool } from "../lib/cli/mod.ts";
import { withDaemon } from "../lib/client/mod.ts";
import { checkKeyWords } from "../lib/screen/keys.ts";

/** The `keys` command. */
export const command: CommandSpec = {
  name: "keys",
  summary: "Type text and named keys into a pane",
  description:
    "Type into a pane, as tmux send-keys does. A word that names a key is that key; any other word is typed as text, with nothing added between words. Keys: Enter, Tab, BTab, Escape, Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, and C- (Ctrl), M- (Alt), S- (Shift) before a key or a letter, such as C-c or M-x. This types without checks; use 'skiff send' to give an agent a task.",
  args: [
    { name: "PANE", required: true, help: "Pane id, name, or project/name" },
    { name: "KEY", variadic: true, required: true, help: "Text or key names" },
  ],
  options: [{ name: "literal", short: "l", type: "boolean", help: "Type every word as text" }],
  examples: ["skiff keys web 'echo hello' Enter", "skiff keys web C-c", "skiff keys -l web Enter"],
  exitCodes: [
    [3, "No such pane"],
    [4, "skiffd could not be reached"],
    [10, "The pane's process has exited"],
  ],
  run: async (ctx) => {
    const words = args(ctx, "KEY");
    const literal = optBool(ctx, "literal");
    if (!literal) checkKeyWords(words);
    const result = await withDaemon((client) =>
      client.call("pane.keys", { pane: arg(ctx, "PANE"), keys: words, literal })
    );
    ctx.out.result(result, () => {});
  },
};
