/**
 * `skiff agents`: the known agents and which are installed.
 *
 * @module
 */

import { defineCommand, table } from "../lib/cli/mod.ts";
import { loadConfig } from "../lib/config/mod.ts";
import { AgentRegistry } from "../lib/agents/registry.ts";
import { BUILT_IN } from "../lib/agents/profiles/mod.ts";
import { which } from "../lib/platform/shell.ts";

/** The `agents` command. */
export const command = defineCommand({
  name: "agents",
  summary: "List the known agents and which are installed",
  description: `Built-in agents (${
    BUILT_IN.map((p) => p.label).join(", ")
  }) and custom agents from [agents.NAME] in projects.toml. A custom agent with a built-in's name replaces it.`,
  run: (ctx) => {
    const config = loadConfig();
    const registry = new AgentRegistry(config);
    const agents = registry.profiles.map((p) => ({
      id: p.id,
      label: p.label,
      command: p.command,
      installed: which(p.command) ?? null,
      continue: p.continueArgs ? [p.command, ...p.continueArgs].join(" ") : null,
      custom: p.custom ?? false,
      hooks: p.hooks.kind,
    }));
    ctx.out.result({ agents }, () =>
      ctx.out.line(table(
        ["ID", "AGENT", "COMMAND", "INSTALLED", "CONTINUE"],
        agents.map((
          a,
        ) => [
          a.id,
          a.label + (a.custom ? " (custom)" : ""),
          a.command,
          a.installed ?? "-",
          a.continue ?? "-",
        ]),
      )));
  },
});
