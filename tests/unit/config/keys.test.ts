/**
 * Unknown keys in `projects.toml` are refused with their place and the
 * nearest known key (issue 21 item 10), and TOML syntax errors say what is
 * likely wrong (item 11).
 */

import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { parseConfig } from "../../../lib/config/config.ts";
import { editDistance, keyPlaces, nearestWord } from "../../../lib/config/keys.ts";
import { tomlHint } from "../../../lib/config/toml_hints.ts";
import { AgentRegistry } from "../../../lib/agents/registry.ts";
import { SkiffError } from "../../../lib/errors.ts";

const FILE = "/cfg/projects.toml";

function refusal(text: string): string {
  const error = assertThrows(() => new AgentRegistry(parseConfig(text, FILE)));
  assert(error instanceof SkiffError, `a SkiffError, not ${error}`);
  assertEquals(error.exit, "USAGE");
  assert(!error.message.includes("\n"), "one line");
  return error.message;
}

Deno.test("keyPlaces: tables, keys, dotted and quoted keys, inline tables, multi-line values", () => {
  const text = [
    "# top",
    'title = "x" # c',
    "[daemon]",
    "  scrollback = 10",
    'shell = """',
    "[not.a.table]",
    'x = 1"""',
    "[projects.'my web']",
    'root = "/a"',
    "list = [",
    "  { a = 1, b = 2 },",
    "  'x]',",
    "]",
    "inline = { deep = { key = 1 } }",
    "a.b.c = true",
    "[[arr]]",
    "n = 1",
    "[[arr]]",
    "n = 2",
  ].join("\n");
  const at = (...path: string[]) => {
    const place = keyPlaces(text).get(JSON.stringify(path));
    return place && `${place.line}:${place.col}`;
  };
  assertEquals(at("title"), "2:1");
  assertEquals(at("daemon"), "3:2");
  assertEquals(at("daemon", "scrollback"), "4:3");
  assertEquals(at("daemon", "shell"), "5:1");
  assertEquals(at("not"), undefined, "a header inside a multi-line string is text");
  assertEquals(at("projects", "my web"), "8:11");
  assertEquals(at("projects", "my web", "root"), "9:1");
  assertEquals(at("projects", "my web", "list", "b"), "11:12");
  assertEquals(at("projects", "my web", "inline", "deep", "key"), "14:21");
  assertEquals(at("projects", "my web", "a", "b", "c"), "15:5");
  assertEquals(at("arr", "n"), "17:1", "the first of an array of tables");
});

Deno.test("nearestWord: a likely typo gets its key, anything else nothing", () => {
  assertEquals(editDistance("scrolback", "scrollback"), 1);
  assertEquals(editDistance("shlel", "shell"), 1, "a swap is one edit");
  assertEquals(nearestWord("scrolback", ["scrollback", "shell"]), "scrollback");
  assertEquals(nearestWord("foldr", ["enabled", "folder"]), "folder");
  assertEquals(nearestWord("projeccts", ["daemon", "projects"]), "projects");
  assertEquals(nearestWord("Shell", ["scrollback", "shell"]), "shell");
  assertEquals(nearestWord("colour", ["scrollback", "shell", "turn_start_seconds"]), undefined);
  assertEquals(nearestWord("turn_start", ["shell", "turn_start_seconds"]), "turn_start_seconds");
  assertEquals(nearestWord("continue", ["command", "continue_args"]), "continue_args");
  assertEquals(nearestWord("rootdir", ["root", "command"]), "root");
});

Deno.test("parseConfig: an unknown key or table anywhere is refused with file:line:col and the nearest key", () => {
  const cases: [string, string][] = [
    [
      "[daemon]\nscrolback = 10\n",
      `${FILE}:2:1: unknown key 'scrolback' in [daemon]; did you mean 'scrollback'?`,
    ],
    [
      '[skiff_agent]\nenabled = true\n  foldr = "/x"\n',
      `${FILE}:3:3: unknown key 'foldr' in [skiff_agent]; did you mean 'folder'?`,
    ],
    [
      '[projeccts.x]\nroot = "/x"\n',
      `${FILE}:1:2: unknown table 'projeccts'; did you mean 'projects'?`,
    ],
    [
      '[projects.web]\nroot = "/x"\ncomand = "make"\n',
      `${FILE}:3:1: unknown key 'comand' in [projects.web]; did you mean 'command'?`,
    ],
    [
      "[daemon]\ncolour = 1\n",
      `${FILE}:2:1: unknown key 'colour' in [daemon]; known keys: scrollback, shell, turn_start_seconds, resume, screen_sleep_seconds`,
    ],
    [
      "theme = 1\n",
      `${FILE}:1:1: unknown table 'theme'; the tables are daemon, projects, skiff_agent, attach, agents, hosts, mcp`,
    ],
    [
      // The issue that brought `skiff land` named the Skiff agent's table [skipper]: it is [skiff_agent].
      '[skipper]\nland = "auto"\n',
      `${FILE}:1:2: unknown table 'skipper'; the Skiff agent's settings live under [skiff_agent] (land, agent, folder, …)`,
    ],
    [
      "daemon = { shell = 'x', scrolback = 1 }\n",
      `${FILE}:1:25: unknown key 'scrolback' in [daemon]; did you mean 'scrollback'?`,
    ],
    [
      "[agents.mine]\ncommand = 'mine'\nprompt = '(.*)'\npromt = 'x'\n",
      `${FILE}:4:1: unknown key 'promt' in [agents.mine]; did you mean 'prompt'?`,
    ],
    [
      "[agents.mine]\ncommand = 'mine'\nprompt = '(.*)'\n[agents.mine.hooks]\nknd = 'none'\n",
      `${FILE}:5:1: unknown key 'knd' in [agents.mine.hooks]; did you mean 'kind'?`,
    ],
    [
      "[agents.mine]\ncommand = 'mine'\nprompt = '(.*'\n",
      `${FILE}:3:1: 'agents.mine.prompt' has a bad pattern: Invalid regular expression: /(.*/: Unterminated group`,
    ],
  ];
  for (const [text, message] of cases) assertEquals(refusal(text), message);
});

Deno.test("parseConfig: a TOML syntax error says what is likely wrong where the parser is cryptic", () => {
  const cases: [string, RegExp][] = [
    ["[daemon\nscrollback = 1\n", /^\S+:1:8: illegal character in key; is the '\]' missing\?/],
    ["[daemon]\nscrollback 100\n", /:2:\d+: .*; a key needs '=' and a value/],
    [
      "[daemon]\nturn start = 1\n",
      /; a key holds no spaces: write turn_start, or put it in quotes$/,
    ],
    ["[x]\na: 1\n", /; a key is set with '=', not ':'/],
    ['[daemon]\nshell = "/bin/zsh\n', /; the string is not closed on its line/],
    ["[daemon]\nshell = /bin/zsh\n", /; text needs quotes: "\/bin\/zsh"$/],
    ["[daemon]\nscrollback =\n", /; a value is missing after '='$/],
    ["[skiff_agent]\nenabled = True\n", /; true and false are written in lower case$/],
    ["[skiff_agent]\nenabled = yes\n", /; use true or false$/],
    ["[x]\na = 'it's'\n", /; a '…' string ends at the next '/],
    ['[x]\na = "C:\\dir"\n', /; a \\ in "…" starts an escape/],
    [
      "[daemon]\nshell = 'a'\nshell = 'b'\n",
      /:3:1: .*; shell is set twice in this table; keep one$/,
    ],
    ["[daemon]\n[daemon]\n", /; \[daemon\] is defined twice/],
    ["[x]\na = [1, 2\n", /; a list or \{ \} table is not closed/],
    ["[x]]\n", /; only a # comment may follow a table header on its line$/],
  ];
  for (const [text, pattern] of cases) {
    const error = assertThrows(() => parseConfig(text, FILE));
    assert(error instanceof SkiffError && error.exit === "USAGE", String(error));
    assert(pattern.test(error.message), `${JSON.stringify(text)} → ${error.message}`);
    assert(!error.message.includes("\n"), "one line");
  }
  assertEquals(tomlHint("invalid date", "a = 2024-13-01", 5), undefined, "clear enough as it is");
});
