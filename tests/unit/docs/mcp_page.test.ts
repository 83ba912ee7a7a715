/**
 * docs/mcp.md and the README name the MCP tools as the server's table has
 * them: every tool with its gate, the gates with their tools, and every
 * error code a tool can answer with. The page is written by hand, so this
 * is what keeps it true when a tool or a gate changes.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";
import { MCP_GATES, TOOLS } from "../../../lib/mcp/mod.ts";
import { Exit } from "../../../lib/errors.ts";

const PAGE = await Deno.readTextFile(join(ROOT, "docs", "mcp.md"));
const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The text of section `title` (a `## ` heading) of the page. */
function section(title: string): string {
  const start = PAGE.indexOf(`\n## ${title}\n`);
  assert(start !== -1, `docs/mcp.md has a '## ${title}' section`);
  const end = PAGE.indexOf("\n## ", start + 1);
  return PAGE.slice(start, end === -1 ? undefined : end);
}

/** The bullets of `text`, each as one line (a bullet may wrap). */
function bullets(text: string): string[] {
  return text.split(/\n- /).slice(1).map((b) => b.split("\n\n")[0].replace(/\n\s*/g, " "));
}

Deno.test("docs/mcp.md lists every tool, in the table's order, with the gate the table gives it", () => {
  const listed = bullets(section("Tools")).map((b) => {
    const match = /^`(\w+)` \((always offered|gate `(\w+)`),/.exec(b);
    assert(match, `a tool's bullet starts with its name and gate: ${b}`);
    return [match[1], match[3] ?? null];
  });
  assertEquals(listed, TOOLS.map((t) => [t.name, t.gate]));
});

Deno.test("docs/mcp.md's gates name each gate's tools as the table has them", () => {
  const gates = bullets(section("Gates")).map((b) => {
    const match = /^`(\w+)`: (.*)\.$/.exec(b);
    assert(match, `a gate's bullet is '\`gate\`: tools.': ${b}`);
    // "`a`, `b`", "`a`, and `b` with `send`", "`a`, `b`": each tool, with its condition if any.
    const tools = match[2].split(/, (?:and )?| and /).map((t) => t.replace(/`/g, ""));
    return [match[1], tools];
  });
  const want = MCP_GATES.map((gate) => [gate, [
    ...TOOLS.filter((t) => t.gate === gate).map((t) => t.name),
    ...TOOLS.filter((t) => t.alsoNeeds?.gate === gate).map((t) => `${t.name} ${t.alsoNeeds!.when}`),
  ]]);
  assertEquals(gates, want);
});

Deno.test("docs/mcp.md names every error code with its exit code", () => {
  const errors = section("Errors").replace(/\s+/g, " ");
  for (const [name, code] of Object.entries(Exit)) {
    if (name === "OK") continue;
    assert(
      new RegExp(`\`${name.toLowerCase()}\` \\(${code}[,)]`).test(errors),
      `docs/mcp.md's errors name \`${name.toLowerCase()}\` (${code})`,
    );
  }
});

Deno.test("docs/mcp.md splits no code span across lines", () => {
  let fenced = false;
  PAGE.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced) {
      assertEquals((line.match(/`/g) ?? []).length % 2, 0, `line ${i + 1}: ${line}`);
    }
  });
});

Deno.test("the README's MCP paragraph names every tool with its gate", () => {
  const start = README.indexOf("Any agent or editor that speaks MCP");
  assert(start !== -1, "the README has its MCP paragraph");
  const paragraph = README.slice(start, README.indexOf("\n\n", start)).replace(/\s+/g, " ");
  const always = TOOLS.filter((t) => t.gate === null).map((t) => `\`${t.name}\``);
  assert(
    paragraph.includes(`${always.slice(0, -1).join(", ")} and ${always.at(-1)} always`),
    `the read-only tools, always: ${paragraph}`,
  );
  for (const tool of TOOLS.filter((t) => t.gate !== null)) {
    assert(
      new RegExp(
        `\`${tool.name}\`(?: and \`\\w+\`)? with (?:\`--allow ${tool.gate}\`|\`${tool.gate}\`)`,
      )
        .test(paragraph),
      `the README names ${tool.name} with its gate ${tool.gate}: ${paragraph}`,
    );
  }
});
