/**
 * The text of `skiff mcp --help` that lists the tools and the gates, made
 * from the table the server registers from, so the two cannot differ.
 *
 * @module
 */

import { GATE_HELP, MCP_GATES, TOOLS } from "../../lib/mcp/mod.ts";

/** The tools, one a line with its gate, then the gates. */
export function toolsHelp(): string {
  const width = Math.max(...TOOLS.map((t) => t.name.length));
  const tools = TOOLS.map((t) =>
    `  ${t.name.padEnd(width)}  ${
      (t.gate === null ? "always" : `--allow ${t.gate}`).padEnd(16)
    }${t.title}`
  );
  const gates = MCP_GATES.map((g) => {
    const named = TOOLS.flatMap((t) => [
      ...(t.gate === g ? [t.name] : []),
      ...(t.alsoNeeds?.gate === g ? [`${t.name} ${t.alsoNeeds.when}`] : []),
    ]);
    return `  ${g.padEnd(7)} ${GATE_HELP[g]}: ${
      named.length > 0 ? named.join(", ") : "no tool yet"
    }`;
  });
  return [
    "Tools (name, gate, what it does):",
    ...tools,
    "",
    'Gates (--allow G,G… or all; or [mcp] allow = ["G", …] in projects.toml, the flag wins):',
    ...gates,
  ].join("\n");
}
