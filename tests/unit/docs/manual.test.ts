/**
 * The README and the manual in docs/ are for users, and must stay true: the
 * events page lists exactly the protocol's events, the pages name every
 * command, every key of projects.toml, every exit code, every dashboard key
 * and every state a ledger row shows; every link lands on a page and a
 * heading that exist; the README is a front page that links every page, with
 * a two-command quick start that .ci/run keeps running.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";
import { EVENT_NAMES } from "../../../lib/protocol/events.ts";
import { COMMANDS } from "../../../cmd/loaders.ts";
import { SHOWN_STATES } from "../../../lib/ledger/states.ts";
import { SKIFF_CLI_SKILL } from "../../../lib/assets/skiff_cli_skill.ts";
import {
  ATTACH_KEYS,
  DAEMON_KEYS,
  PROJECT_KEYS,
  SKIFF_AGENT_KEYS,
} from "../../../lib/config/tables.ts";
import { TOP_LEVEL_TABLES } from "../../../lib/config/config.ts";
import { HOST_KEYS } from "../../../lib/hosts/config.ts";
import { AGENT_KEYS } from "../../../lib/agents/profile_toml.ts";
import { Exit } from "../../../lib/errors.ts";
import { LEDGER_KEYS, LIST_KEYS } from "../../../lib/dash/draw/keymap.ts";
import { docCommands } from "../../helpers/doc_examples.ts";

const read = (file: string) => Deno.readTextFileSync(join(ROOT, file));

/** Every page of docs/, by its name from the root. */
const PAGES = [...Deno.readDirSync(join(ROOT, "docs"))]
  .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
  .map((entry) => `docs/${entry.name}`).sort();

/** The README and every page. */
const DOCS = ["README.md", ...PAGES];

/** The pages written by hand (docs/cli.md is written from the command table). */
const WRITTEN = DOCS.filter((file) => file !== "docs/cli.md");

/** The lines outside code blocks. */
function prose(text: string): string[] {
  let code = false;
  return text.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      code = !code;
      return false;
    }
    return !code;
  });
}

/** The lines of `file`'s section under `heading`, up to the next heading as high or higher. */
function section(file: string, heading: string): string[] {
  const lines = read(file).split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  assert(start !== -1, `${file} has no '${heading}' section`);
  const level = heading.indexOf(" ");
  const end = lines.findIndex((line, i) =>
    i > start && /^#{1,6} /.test(line) && line.indexOf(" ") <= level
  );
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The anchor GitHub gives a heading. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replaceAll(" ", "-");
}

/** The anchors of a page's headings, with GitHub's -1, -2 for repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = anchor(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

Deno.test("manual: the events page lists exactly the protocol's events", () => {
  // Each event is listed as "- `name`, `name`: when".
  const names = section("docs/events.md", "## The events")
    .filter((line) => line.startsWith("- `"))
    .flatMap((line) =>
      [...line.slice(0, line.indexOf(":")).matchAll(/`([a-z-]+)`/g)].map((m) => m[1])
    );
  assertEquals([...names].sort(), [...EVENT_NAMES].sort());
});

Deno.test("manual: lines fit a 100-column terminal, outside code blocks, on every page", () => {
  const wide = DOCS.flatMap((file) =>
    prose(read(file)).filter((line) => [...line].length > 100).map((line) => `${file}: ${line}`)
  );
  assertEquals(wide, []);
});

Deno.test("manual: every command is described on a page written by hand", () => {
  const text = WRITTEN.map(read).join("\n");
  const missing = COMMANDS.filter((entry) => !text.includes(`\`skiff ${entry.name}`))
    .map((entry) => entry.name);
  assertEquals(missing, []);
});

Deno.test("manual: the README and the index link every page of the manual", () => {
  const readme = read("README.md");
  const index = read("docs/README.md");
  for (const page of PAGES.filter((page) => page !== "docs/README.md")) {
    assert(readme.includes(`](${page})`), `README.md links ${page}`);
    assert(index.includes(`](${page.slice("docs/".length)})`), `docs/README.md links ${page}`);
  }
  assert(readme.includes("](docs/README.md)"), "README.md links the index");
});

Deno.test("manual: every link to a page lands on a page and a heading that exist", () => {
  const broken: string[] = [];
  for (const file of DOCS) {
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
    for (const line of prose(read(file))) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        const [path, hash] = target.split("#");
        const to = path === "" ? file : join(dir, path);
        let text: string;
        try {
          text = read(to);
        } catch {
          broken.push(`${file}: ${target} (no file ${to})`);
          continue;
        }
        if (hash !== undefined && !anchors(text).has(hash)) {
          broken.push(`${file}: ${target} (no heading #${hash} in ${to})`);
        }
      }
    }
  }
  assertEquals(broken, []);
});

Deno.test("manual: the configuration page names every key of projects.toml", () => {
  const config = prose(read("docs/config.md")).join("\n");
  const keys = [
    ...TOP_LEVEL_TABLES,
    ...DAEMON_KEYS,
    ...PROJECT_KEYS,
    ...ATTACH_KEYS,
    ...SKIFF_AGENT_KEYS,
    ...HOST_KEYS,
    ...AGENT_KEYS,
  ];
  const missing = keys.filter((key) =>
    !config.includes(`\`${key}\``) && !config.includes(`[${key}`)
  );
  assertEquals(missing, []);
  // Each key is described in full where its table is.
  const settings = section("docs/skipper.md", "## Its settings").join("\n");
  for (const key of SKIFF_AGENT_KEYS) assert(settings.includes(`\`${key}\``), `skipper.md: ${key}`);
  const hosts = read("docs/hosts.md");
  for (const key of HOST_KEYS) {
    assert(new RegExp(`^${key} = `, "m").test(hosts), `hosts.md: ${key}`);
  }
});

Deno.test("manual: the exit codes page lists every exit code with its JSON name", () => {
  const page = read("docs/exit-codes.md");
  const listed = [...page.matchAll(/^- \*\*(\d+)\*\* `([a-z_]+)`: /gm)].map((m) => [+m[1], m[2]]);
  const codes = Object.entries(Exit).map(([name, code]) => [code, name.toLowerCase()]);
  assertEquals(listed, codes);
});

Deno.test("manual: the dashboard page's key table has every key the dashboard's help shows", () => {
  const table = section("docs/dashboard.md", "## Keys").filter((line) => line.startsWith("| "))
    .map((line) => line.split("|")[1]).join(" ");
  const words = (keys: string) => keys.split(" ").map((k) => k === "Enter" ? k : `\`${k}\``);
  for (const help of LIST_KEYS) {
    for (const key of words(help.keys)) assert(table.includes(key), `dashboard.md: ${key}`);
  }
  const ledger = prose(read("docs/dashboard.md")).join("\n");
  for (const help of LEDGER_KEYS) {
    const key = help.keys.split(" ")[0];
    assert(ledger.includes(key === "Enter" ? "Enter" : `\`${key}\``), `ledger view: ${key}`);
  }
});

Deno.test("manual: the ledger page and the skiff-cli skill name every state a row shows", () => {
  const paragraph = section("docs/ledger.md", "## States").join(" ");
  const skill = read("skills/skiff-cli/SKILL.md");
  for (const state of SHOWN_STATES) {
    assert(paragraph.includes(`\`${state}\``), `ledger.md's States names '${state}'`);
    assert(skill.includes(`\`${state}\``), `SKILL.md names '${state}'`);
  }
  // The skill built into the program says so too (tests/unit/assets checks it is in step).
  for (const state of SHOWN_STATES) assert(SKIFF_CLI_SKILL.includes(`\`${state}\``), state);
});

Deno.test("README: a front page, whose quick start is two commands that .ci/run keeps running", () => {
  const readme = read("README.md");
  const lines = readme.split("\n").length;
  assert(lines <= 260, `README.md has ${lines} lines; the manual is in docs/`);
  const quick = section("README.md", "## Quick start").join("\n");
  const block = /```sh\n([\s\S]*?)```/.exec(quick);
  assert(block, "the quick start has a sh block");
  const commands = block[1].trim().split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());
  assertEquals(commands, ["./skiff", "./test"]);
  assert(docCommands(quick, "README.md").length === 1, "./skiff is checked as a skiff command");
  const ci = read(".ci/run");
  assert(/^\.\/test\b/m.test(ci), ".ci/run runs ./test, the README's test command");
  // The capture of the dashboard holds no path of the machine it was made on.
  const capture = /```text\n([\s\S]*?)```/.exec(readme)![1];
  assert(capture.includes("Skiff ") && capture.includes("│"), "the dashboard's capture");
  const home = Deno.env.get("HOME");
  for (const path of [ROOT, "/work/", ...(home && home !== "/" ? [`${home}/`] : [])]) {
    assert(!capture.includes(path), `the capture shows a path of this machine: ${path}`);
  }
});
