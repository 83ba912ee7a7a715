/**
 * `skiff mcp install` and `uninstall` on each agent's own file: a file that
 * already holds other servers, settings and comments keeps them; a second
 * install is byte for byte a no-op; uninstall removes only Skiff's entry.
 * Each agent's folder variable is honoured, so nothing here touches a real
 * home.
 *
 * @module
 */

import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseJsonc } from "jsonc-parser";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { MAIN, withSkiff } from "../helpers/skiff.ts";

/** Each agent: its folder variable, the file in it, a file with other servers and comments, and where Skiff's entry goes. */
const AGENTS = {
  claude: {
    variable: "CLAUDE_CONFIG_DIR",
    file: ".claude.json",
    text: `{
  "numStartups": 3,
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "gh-mcp",
      "args": [],
      "env": {}
    }
  },
  "theme": "dark"
}
`,
    path: ["mcpServers", "skiff"],
    others: ["mcpServers", "github"],
  },
  gemini: {
    variable: "GEMINI_CLI_HOME",
    file: ".gemini/settings.json",
    text: `{
  // Gemini takes comments in its settings.
  "theme": "GitHub",
  "mcpServers": {
    "docs": { "command": "docs-mcp", "args": ["--stdio"] } // the docs server
  }
}
`,
    path: ["mcpServers", "skiff"],
    others: ["mcpServers", "docs"],
  },
  opencode: {
    variable: "OPENCODE_CONFIG_DIR",
    file: "opencode.jsonc",
    text: `{
  "$schema": "https://opencode.ai/config.json",
  /* My own servers. */
  "mcp": {
    "jira": { "type": "local", "command": ["jira-mcp"], "enabled": true },
  },
  "autoupdate": false,
}
`,
    path: ["mcp", "skiff"],
    others: ["mcp", "jira"],
  },
  codex: {
    variable: "CODEX_HOME",
    file: "config.toml",
    text: `# My Codex settings.
model = "gpt-5" # the default

[mcp_servers.linear]
command = "linear-mcp"   # keep this comment
args = ["--quiet"]

[mcp_servers.linear.env]
LINEAR_TOKEN = "secret"
`,
    path: ["mcp_servers", "skiff"],
    others: ["mcp_servers", "linear"],
  },
} as const;

function read(text: string, file: string): Record<string, unknown> {
  return (file.endsWith(".toml") ? parseToml(text) : parseJsonc(text)) as Record<string, unknown>;
}

function at(doc: Record<string, unknown>, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
}

Deno.test("mcp install: each agent's file keeps its other servers and comments, a second install is a no-op, uninstall removes only Skiff", async () => {
  await withSkiff(async (skiff) => {
    for (const [agent, spec] of Object.entries(AGENTS)) {
      const dir = join(skiff.root, `${agent}-config`);
      skiff.env[spec.variable] = dir;
      const file = join(dir, spec.file);
      await Deno.mkdir(join(file, ".."), { recursive: true });
      await Deno.writeTextFile(file, spec.text);

      const added = await skiff.json<{ file: string; changed: boolean; entry: unknown }>([
        "mcp",
        "install",
        agent,
        "--allow",
        "send,ledger",
        "--project",
        "api",
      ]);
      assertEquals([added.file, added.changed], [file, true], agent);
      const text = await Deno.readTextFile(file);
      const doc = read(text, file);
      // Every other entry and setting is as it was; the comments are still there, word for word.
      assertEquals(at(doc, spec.others), at(read(spec.text, file), spec.others), agent);
      for (const comment of spec.text.match(/(\/\/|#|\/\*).*$/gm) ?? []) {
        assert(text.includes(comment), `${agent} keeps '${comment}'`);
      }
      // Skiff's entry runs this skiff, by absolute path, with the options given.
      const entry = at(doc, spec.path) as Record<string, unknown>;
      const words = agent === "opencode"
        ? entry.command as string[]
        : [entry.command as string, ...entry.args as string[]];
      assertEquals(words[0], Deno.execPath());
      assertEquals(words.slice(1), [
        "run",
        "-A",
        "--quiet",
        MAIN,
        "mcp",
        "--allow",
        "send,ledger",
        "--project",
        "api",
      ]);
      assertEquals(added.entry, entry);
      // Where Skiff's files are comes along (the test's SKIFF_* variables).
      const env = (agent === "opencode" ? entry.environment : entry.env) as Record<string, string>;
      assertEquals(env.SKIFF_SOCKET, skiff.env.SKIFF_SOCKET, agent);
      assertEquals(env.SKIFF_CONFIG_DIR, skiff.env.SKIFF_CONFIG_DIR, agent);

      const again = await skiff.json<{ changed: boolean }>([
        "mcp",
        "install",
        agent,
        "--allow",
        "ledger,send",
        "--project",
        "api",
      ]);
      assertEquals(again.changed, false, agent);
      assertEquals(
        await Deno.readTextFile(file),
        text,
        `${agent}: a second install is byte for byte a no-op`,
      );
      const sayAgain = await skiff.ok([
        "mcp",
        "install",
        agent,
        "--allow",
        "send,ledger",
        "--project",
        "api",
      ]);
      assertMatch(sayAgain, /^Skiff is already in .*; nothing changed\n$/);

      // Other options: the entry changes, in place.
      await skiff.ok(["mcp", "install", agent, "--allow", "all"]);
      const changed = at(read(await Deno.readTextFile(file), file), spec.path) as Record<
        string,
        unknown
      >;
      const changedWords = agent === "opencode"
        ? changed.command as string[]
        : changed.args as string[];
      assertEquals(changedWords.slice(-3), ["mcp", "--allow", "all"]);

      const removed = await skiff.ok(["mcp", "uninstall", agent]);
      assertMatch(removed, /^Removed Skiff from .* MCP servers in /);
      const after = await Deno.readTextFile(file);
      assertEquals(at(read(after, file), spec.path), undefined);
      assertEquals(read(after, file), read(spec.text, file), `${agent}: only Skiff's entry went`);
      assertEquals(after, spec.text, `${agent}: back byte for byte`);
      const twice = await skiff.json<{ changed: boolean }>(["mcp", "uninstall", agent]);
      assertEquals(twice.changed, false);
      assertEquals(await Deno.readTextFile(file), after);
    }
  });
});

Deno.test("mcp install: a missing file is made; --print changes nothing; a broken file is refused and left alone", async () => {
  await withSkiff(async (skiff) => {
    const home = skiff.env.HOME;
    await skiff.ok(["mcp", "install", "claude"]);
    const claude = JSON.parse(await Deno.readTextFile(join(home, ".claude.json")));
    assertEquals(claude.mcpServers.skiff.type, "stdio");
    await skiff.ok(["mcp", "install", "codex", "--allow", "send"]);
    const codex = parseToml(await Deno.readTextFile(join(home, ".codex", "config.toml"))) as {
      mcp_servers: { skiff: { args: string[]; env: Record<string, string> } };
    };
    assertEquals(codex.mcp_servers.skiff.args.slice(-3), ["mcp", "--allow", "send"]);
    assertEquals(codex.mcp_servers.skiff.env.SKIFF_SOCKET, skiff.socket);
    await skiff.ok(["mcp", "install", "opencode"]);
    assert((await Deno.stat(join(home, ".config", "opencode", "opencode.json"))).isFile);
    await skiff.ok(["mcp", "install", "gemini"]);
    assert((await Deno.stat(join(home, ".gemini", "settings.json"))).isFile);

    const printed = await skiff.run(["mcp", "install", "--print", "codex", "--allow", "all"]);
    assertEquals(printed.code, 0);
    assertMatch(
      printed.stdout,
      /^\[mcp_servers\.skiff\]\ncommand = ".*"\nargs = \[.*"mcp", "--allow", "all"\]\n\n\[mcp_servers\.skiff\.env\]\n/,
    );
    assertMatch(printed.stderr, /^Add this to .*config\.toml \(Codex's MCP servers\):\n$/);
    assertEquals(codex.mcp_servers.skiff.args.slice(-1), ["send"]);
    const printedJson = await skiff.json<{ file: string; entry: { args: string[] } }>([
      "mcp",
      "install",
      "--print",
      "codex",
    ]);
    assertEquals(printedJson.file, join(home, ".codex", "config.toml"));
    // Without --allow the entry names no gate (the server opens [mcp] allow's); with
    // --allow none it says so, so [mcp] allow opens nothing for that agent.
    assertEquals(printedJson.entry.args.slice(-1), ["mcp"]);
    await skiff.ok(["mcp", "install", "claude", "--allow", "none"]);
    const none = JSON.parse(await Deno.readTextFile(join(home, ".claude.json")));
    assertEquals(none.mcpServers.skiff.args.slice(-3), ["mcp", "--allow", "none"]);
    const printedNone = await skiff.json<{ entry: { args: string[] } }>([
      "mcp",
      "install",
      "--print",
      "codex",
      "--allow",
      "none",
    ]);
    assertEquals(printedNone.entry.args.slice(-3), ["mcp", "--allow", "none"]);

    const broken = join(skiff.root, "broken");
    await Deno.mkdir(join(broken, ".gemini"), { recursive: true });
    const text = '{ "mcpServers": { "a": 1, }\n';
    await Deno.writeTextFile(join(broken, ".gemini", "settings.json"), text);
    skiff.env.GEMINI_CLI_HOME = broken;
    const refused = await skiff.run(["mcp", "install", "gemini"]);
    assertEquals(refused.code, 6);
    assertMatch(
      refused.stderr,
      /^skiff: .*settings\.json:\d+: not a JSON object Skiff can edit; .*\n$/,
    );
    assertEquals(await Deno.readTextFile(join(broken, ".gemini", "settings.json")), text);
    const bad = await skiff.run(["mcp", "install", "cursor"]);
    assertEquals(bad.code, 2);
    assertEquals((await skiff.run(["mcp", "install", "claude", "--allow", "everything"])).code, 2);
  });
});

Deno.test("mcp uninstall: the person's comments stay, and only what install made goes", async () => {
  await withSkiff(async (skiff) => {
    const dir = join(skiff.root, "claude");
    skiff.env.CLAUDE_CONFIG_DIR = dir;
    await Deno.mkdir(dir);
    const file = join(dir, ".claude.json");
    const roundTrip = async (text: string | null) => {
      if (text === null) await Deno.remove(file).catch(() => {});
      else await Deno.writeTextFile(file, text);
      await skiff.ok(["mcp", "install", "claude"]);
      await skiff.ok(["mcp", "uninstall", "claude"]);
      return await Deno.readTextFile(file).catch(() => null);
    };
    // No servers before: install made mcpServers, and uninstall takes it away again.
    const plain = '{\n  "theme": "dark"\n}\n';
    assertEquals(await roundTrip(plain), plain);
    // No file before: install made it, and nothing else was written to it.
    assertEquals(await roundTrip(null), null);
    // The person's empty mcpServers stays, as they wrote it.
    const empty = '{\n  "theme": "dark",\n  "mcpServers": {}\n}\n';
    assertEquals(await roundTrip(empty), empty);
    // Skiff the only server, beside the person's comments in mcpServers: the comments stay.
    const commented = '{\n  "mcpServers": {\n    // gh-mcp is off for now\n  }\n}\n';
    await Deno.writeTextFile(file, commented);
    await skiff.ok(["mcp", "install", "claude"]);
    const withSkiff = await Deno.readTextFile(file);
    assert(withSkiff.includes("// gh-mcp is off for now"));
    // The person adds a comment inside mcpServers after the install.
    await Deno.writeTextFile(
      file,
      withSkiff.replace('"skiff": {', '// Skiff, from skiff mcp install:\n    "skiff": {'),
    );
    await skiff.ok(["mcp", "uninstall", "claude"]);
    assertEquals(
      await Deno.readTextFile(file),
      '{\n  "mcpServers": {\n    // gh-mcp is off for now\n    // Skiff, from skiff mcp install:\n  }\n}\n',
    );

    // Codex: a comment above Skiff's table and keys of the person's in it.
    skiff.env.CODEX_HOME = join(skiff.root, "codex");
    await Deno.mkdir(skiff.env.CODEX_HOME);
    const toml = join(skiff.env.CODEX_HOME, "config.toml");
    const before = '[mcp_servers.linear]\ncommand = "linear-mcp"\n';
    await Deno.writeTextFile(toml, before);
    await skiff.ok(["mcp", "install", "codex"]);
    const installed = await Deno.readTextFile(toml);
    const edited = installed
      .replace("[mcp_servers.skiff]\n", "# Skiff drives my panes.\n[mcp_servers.skiff]\n")
      .replace(/(\nargs = .*\n)/, "$1tool_timeout_sec = 600\n")
      .replace("[mcp_servers.skiff.env]\n", '[mcp_servers.skiff.env]\nRUST_LOG = "debug"\n');
    await Deno.writeTextFile(toml, edited);
    // Installing again: the person's key and variable are theirs, not a change of Skiff's.
    const again = await skiff.json<{ changed: boolean }>(["mcp", "install", "codex"]);
    assertEquals(again.changed, false);
    assertEquals(await Deno.readTextFile(toml), edited);
    // A variable Skiff wrote and no longer has (SKIFF_LEDGER unset): it goes, theirs stay.
    const ledger = skiff.env.SKIFF_LEDGER;
    skiff.env.SKIFF_LEDGER = join(skiff.root, "ledger.jsonl");
    await skiff.ok(["mcp", "install", "codex"]);
    assertMatch(await Deno.readTextFile(toml), /SKIFF_LEDGER = /);
    if (ledger === undefined) delete skiff.env.SKIFF_LEDGER;
    else skiff.env.SKIFF_LEDGER = ledger;
    assertEquals(
      (await skiff.json<{ changed: boolean }>(["mcp", "install", "codex"])).changed,
      true,
    );
    assertEquals(await Deno.readTextFile(toml), edited);
    assertEquals(
      (await skiff.json<{ changed: boolean }>(["mcp", "install", "codex"])).changed,
      false,
    );
    // Uninstall: the server's table goes, the person's comment above it stays.
    await skiff.ok(["mcp", "uninstall", "codex"]);
    assertEquals(await Deno.readTextFile(toml), `${before}\n# Skiff drives my panes.\n`);
  });
});
