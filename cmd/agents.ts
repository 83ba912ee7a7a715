/**
 * `skiff agents`: the known agents and which are installed.
 *
 * @module
 */

import { defineCommand, table } from "../lib/cli/mod.ts";
import { loadConfig } from "../lib/config/mod.ts";
import { AgentRegistry } from "../lib/agents/registry.ts";
import { BUILT_IN } from "../lib/agents/profiles/mod.ts";
import { shellLine, which } from "../lib/platform/shell.ts";

/** The `agents` command. */
export const command = defineCommand({
  name: "agents",
  summary: "List the known agents and which are installed",
  description: `Built-in agents (${
    BUILT_IN.map((p) => p.label).join(", ")
  }) and custom agents from [agents.NAME] in projects.toml. A custom agent with a built-in's name replaces it. COMMAND and CONTINUE are the whole lines a pane runs (Skiff adds its hook wiring to them).`,
  run: (ctx) => {
    const config = loadConfig();
    const registry = new AgentRegistry(config);
    const agents = registry.profiles.map((p) => {
      // The whole lines a pane runs (without Skiff's hook wiring), not the program alone.
      const argv = [p.command, ...(p.startArgs ?? [])];
      const continueArgv = p.continueArgs ? [...argv, ...p.continueArgs] : null;
      return {
        id: p.id,
        label: p.label,
        command: shellLine(argv),
        argv,
        installed: which(p.command) ?? null,
        continue: continueArgv ? shellLine(continueArgv) : null,
        continue_argv: continueArgv,
        custom: p.custom ?? false,
        hooks: p.hooks.kind,
      };
    });
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
