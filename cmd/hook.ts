/**
 * `skiff hook`: the endpoint an agent's hook calls. It tells skiffd what the
 * agent in this pane just did. It never fails the agent: it prints nothing
 * and exits 0, even when skiffd is away.
 *
 * @module
 */

import { defineCommand, readStdin } from "../lib/cli/mod.ts";
import { quietSkewHint, tryConnect } from "../lib/client/mod.ts";

function parse(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The `hook` command. */
export const command = defineCommand({
  name: "hook",
  summary: "Endpoint for agent hooks (agents call it, not people)",
  description:
    "Reports an agent's hook event to skiffd for the pane in SKIFF_PANE. The payload is JSON on stdin, or as the last argument (Codex's notify). Skiff wires this into agents it starts; it always exits 0 and prints nothing.",
  args: [
    // A hook never fails the agent, whatever it passes: empty words are let through.
    { name: "AGENT", required: true, empty: true, help: "claude, codex, gemini, …" },
    { name: "EVENT", required: true, empty: true, help: "The hook event, such as Stop" },
    { name: "JSON", empty: true, help: "The payload, when not on stdin" },
  ],
  run: async (ctx) => {
    // A hook prints nothing, not even the hint about an older skiffd.
    quietSkewHint();
    const pane = Deno.env.get("SKIFF_PANE");
    if (!pane) return;
    const inline = ctx.args.JSON;
    const payload = parse(
      inline ?? (Deno.stdin.isTerminal() ? "" : await readStdin({ timeoutMs: 2000 })),
    );
    try {
      const client = await tryConnect();
      if (!client) return;
      try {
        await client.call("pane.hook", {
          pane,
          agent: ctx.args.AGENT,
          event: ctx.args.EVENT,
          payload,
          session: typeof payload.session_id === "string" ? payload.session_id : undefined,
        });
      } finally {
        client.close();
      }
    } catch {
      // A hook must never fail the agent.
    }
  },
});
