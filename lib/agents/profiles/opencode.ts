/**
 * opencode. Its input box is a `┃` block above the `Build · model` status;
 * busy shows moving blocks and `esc interrupt` at the bottom left; an
 * approval shows `△ Permission required` with Allow once / Allow always /
 * Reject. It keeps its title, so the screen is the signal.
 *
 * @module
 */

import type { AgentProfile } from "./profile.ts";

/** The opencode profile. */
export const opencode: AgentProfile = {
  id: "opencode",
  label: "opencode",
  command: "opencode",
  continueArgs: ["--continue"],
  match: { comm: ["opencode", "opencode.exe"], argv: ["opencode", "opencode.exe"] },
  enterDelayMs: 250,
  screen: {
    busy: [
      { name: "interrupt hint", pattern: /\besc (again to )?interrupt\b/i },
      { name: "progress blocks", pattern: /[■⬝]{4,}/ },
      {
        name: "thinking",
        pattern: /^\s*(Thinking|Generating|Building tool call|Waiting for tool response)\.\.\./,
      },
    ],
    approval: [
      { name: "permission title", pattern: /Permission required/ },
      { name: "allow options", pattern: /Allow once\s+Allow always\s+Reject/ },
      { name: "question footer", pattern: /\benter (confirm|submit)\b.*\besc dismiss\b/ },
    ],
    composer: {
      line: /^\s*┃\s?(.*?)\s*$/,
      status: /^\s*┃\s+\S+ · \S/,
      placeholders: [/^Ask anything/, /^press enter to send/],
    },
  },
  hooks: {
    kind: "opencode-plugin",
    events: {
      "session.status": {
        field: "status.type",
        cases: [{ pattern: /^busy$/, state: "working" }, { pattern: /^idle$/, state: "idle" }],
      },
      "session.idle": "idle",
      "permission.asked": "waiting",
      "permission.replied": "working",
    },
  },
  // Its plugin events name the session (`info.id`); a subagent's session has a parent.
  // Sessions live in a SQLite file in its data folder.
  resume: {
    args: ["--session", "{id}"],
    id: {
      field: "info.id",
      events: ["session.created", "session.updated"],
      unless: ["info.parentID"],
      cwd: "info.directory",
    },
    record: {
      sqlite: {
        path: "${OPENCODE_DB:-${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db}",
        query: "SELECT 1 FROM session WHERE id = ?",
      },
    },
  },
};
