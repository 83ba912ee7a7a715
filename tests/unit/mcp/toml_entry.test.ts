import { parse } from "smol-toml";
import { assertEquals } from "../../helpers/assert.ts";
import {
  ownedPart,
  removeTomlEntry,
  setTomlEntry,
  TOML_OWNED_ENV,
  TOML_OWNED_KEYS,
  tomlEntryAt,
} from "../../../lib/mcp/install/toml_entry.ts";

const PATH = ["mcp_servers", "skiff"];

const ENTRY = {
  command: "/bin/skiff",
  args: ["mcp", "--allow", "send"],
  env: { SKIFF_SOCKET: "/run/s.sock", SKIFF_LEDGER: "/l.jsonl" },
};

/** Installs `entry` the way installMcp decides: only when Skiff's own keys differ. */
function install(text: string, entry: Record<string, unknown>): string {
  const current = tomlEntryAt(text, PATH, "f");
  if (current !== undefined && ownedPart(current) === ownedPart(entry)) return text;
  return setTomlEntry(text, PATH, entry as never);
}

Deno.test("toml entry: install, again, and uninstall give the file back byte for byte", () => {
  const text = '# My settings.\nmodel = "gpt-5"\n\n# End of my notes.\n';
  const added = install(text, ENTRY);
  assertEquals(
    added,
    text +
      '\n[mcp_servers.skiff]\ncommand = "/bin/skiff"\nargs = ["mcp", "--allow", "send"]\n\n' +
      '[mcp_servers.skiff.env]\nSKIFF_SOCKET = "/run/s.sock"\nSKIFF_LEDGER = "/l.jsonl"\n',
  );
  assertEquals(install(added, ENTRY), added);
  assertEquals(removeTomlEntry(added), text);
});

Deno.test("toml entry: the keys and variables the person added stay, and never make an install write again", () => {
  const text = [
    "[mcp_servers.linear]",
    'command = "linear-mcp"',
    "",
    "# Skiff: added by skiff mcp install; the timeout is mine.",
    "[mcp_servers.skiff]",
    'command = "/bin/skiff"',
    'args = ["mcp", "--allow", "send"]',
    "tool_timeout_sec = 600 # wait_for_pane may take long",
    "",
    "[mcp_servers.skiff.env]",
    'SKIFF_SOCKET = "/run/s.sock"',
    'SKIFF_LEDGER = "/l.jsonl"',
    'RUST_LOG = "debug"',
    "",
    "# My other server comes next.",
    "[mcp_servers.docs]",
    'command = "docs-mcp"',
    "",
  ].join("\n");
  // The same entry: the person's key and variable are not compared; nothing is written.
  assertEquals(install(text, ENTRY), text);
  // SKIFF_LEDGER is no longer set where install runs: it goes, RUST_LOG and the timeout stay.
  const fewer = install(text, { ...ENTRY, env: { SKIFF_SOCKET: "/run/s.sock" } });
  assertEquals(fewer, text.replace('SKIFF_LEDGER = "/l.jsonl"\n', ""));
  assertEquals(install(fewer, { ...ENTRY, env: { SKIFF_SOCKET: "/run/s.sock" } }), fewer);
  // No variable of Skiff's left: the person's keeps the env table.
  const none = install(fewer, { command: ENTRY.command, args: ENTRY.args });
  const table = parse(none) as { mcp_servers: { skiff: Record<string, unknown> } };
  assertEquals(table.mcp_servers.skiff, {
    command: "/bin/skiff",
    args: ["mcp", "--allow", "send"],
    tool_timeout_sec: 600,
    env: { RUST_LOG: "debug" },
  });
  assertEquals(install(none, { command: ENTRY.command, args: ENTRY.args }), none);
  // Uninstall removes the whole server (a table without its command would break Codex's
  // file), and only from its header to its last key: the comments around it stay.
  assertEquals(
    removeTomlEntry(text),
    [
      "[mcp_servers.linear]",
      'command = "linear-mcp"',
      "",
      "# Skiff: added by skiff mcp install; the timeout is mine.",
      "",
      "# My other server comes next.",
      "[mcp_servers.docs]",
      'command = "docs-mcp"',
      "",
    ].join("\n"),
  );
});

Deno.test("toml entry: an env table with nothing of the person's goes once Skiff writes no variable", () => {
  const added = install("", ENTRY);
  const bare = install(added, { command: ENTRY.command, args: ENTRY.args });
  assertEquals(
    bare,
    '[mcp_servers.skiff]\ncommand = "/bin/skiff"\nargs = ["mcp", "--allow", "send"]\n',
  );
  assertEquals(install(bare, { command: ENTRY.command, args: ENTRY.args }), bare);
});

Deno.test("toml entry: an env written inline becomes a table, keeping the person's variables", () => {
  const text =
    '[mcp_servers.skiff]\ncommand = "/old"\nenv = { RUST_LOG = "debug", SKIFF_SOCKET = "/old.sock" }\n';
  const out = install(text, ENTRY);
  assertEquals((parse(out) as { mcp_servers: { skiff: unknown } }).mcp_servers.skiff, {
    command: "/bin/skiff",
    args: ["mcp", "--allow", "send"],
    env: { RUST_LOG: "debug", SKIFF_SOCKET: "/run/s.sock", SKIFF_LEDGER: "/l.jsonl" },
  });
  assertEquals(install(out, ENTRY), out);
});

Deno.test("toml entry: after an upgrade, a key an older Skiff wrote and this one does not is removed", () => {
  // An older Skiff wrote `cwd`; this one still lists it as its own but writes it no more.
  const owned = { keys: [...TOML_OWNED_KEYS, "cwd"], env: TOML_OWNED_ENV };
  const older = '[mcp_servers.skiff]\ncommand = "/bin/skiff"\ncwd = "/old"\nargs = ["mcp"]\n' +
    "startup_timeout_sec = 20\n";
  const entry = { command: "/bin/skiff", args: ["mcp"] };
  assertEquals(ownedPart(tomlEntryAt(older, PATH, "f"), owned) === ownedPart(entry, owned), false);
  const upgraded = setTomlEntry(older, PATH, entry, owned);
  assertEquals(
    upgraded,
    '[mcp_servers.skiff]\ncommand = "/bin/skiff"\nargs = ["mcp"]\nstartup_timeout_sec = 20\n',
  );
  assertEquals(ownedPart(tomlEntryAt(upgraded, PATH, "f"), owned), ownedPart(entry, owned));
  assertEquals(setTomlEntry(upgraded, PATH, entry, owned), upgraded);
});
