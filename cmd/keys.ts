/**
 * `skiff keys`: type keys into a pane.
 *
 * @module
 */

import { defineCommand, PANE_ARG } from "../lib/cli/mod.ts";
import { withPane } from "../lib/hosts/resolve.ts";
import { checkKeyWords } from "../lib/screen/keys.ts";

/** The `keys` command. */
export const command = defineCommand({
  name: "keys",
  summary: "Type text and named keys into a pane",
  description:
    "Type into a pane, as tmux send-keys does. A word that names a key is that key; any other word is typed as text, with nothing added between words. Keys: Enter, Tab, BTab, Escape, Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, and C- (Ctrl), M- (Alt), S- (Shift) before a key or a letter, such as C-c or M-x. This types without checks; use 'skiff send' to give an agent a task.",
  args: [
    PANE_ARG,
    { name: "KEY", variadic: true, required: true, help: "Text or key names" },
  ],
  options: [{ name: "literal", short: "l", type: "boolean", help: "Type every word as text" }],
  examples: ["skiff keys web 'echo hello' Enter", "skiff keys web C-c", "skiff keys -l web Enter"],
  exits: [
    ["UNREACHABLE", "HOST (in HOST:PANE) cannot be reached, or the link was lost"],
    "NOT_FOUND",
    "DAEMON",
    "NOT_RUNNING",
  ],
  run: async (ctx) => {
    const words = ctx.args.KEY;
    const literal = ctx.opts.literal;
    if (!literal) checkKeyWords(words);
    const result = await withPane(
      ctx.args.PANE,
      (client, pane) => client.call("pane.keys", { pane, keys: words, literal }),
    );
    ctx.out.result(result, () => {});
  },
});
