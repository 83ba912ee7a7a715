/**
 * `skiff mcp` driven by the MCP SDK's own client over stdio, against a real
 * skiffd: the tools each gate offers, every tool with good and bad input,
 * closed tools refused with the flag that would open them, and each
 * result equal to what the matching command prints with `--json`.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  loggedPrompts,
  newFakeAgentArgs,
  startFakeAgent,
  useFakeAgent,
} from "../helpers/fake_agent.ts";
import { addProject, commitAll, defaultWorktreePath, git, makeRepo } from "../helpers/git.ts";
import { commitFiles, landingRepo, shellInWorktree, snapshot } from "../helpers/land.ts";
import { BASH, waitFor, withSkiff } from "../helpers/skiff.ts";
import { call, type CallResult, connectMcp, type McpSession, toolErrorOf } from "../helpers/mcp.ts";
import { TOOLS } from "../../lib/mcp/tools/mod.ts";

const READ_TOOLS = [
  "list_panes",
  "capture_pane",
  "wait_for_pane",
  "pane_diff",
  "ledger_list",
  "ledger_show",
];

async function toolNames(session: McpSession): Promise<string[]> {
  return (await session.client.listTools()).tools.map((t) => t.name);
}

/** The structured content of a call that must succeed. */
function ok(result: CallResult): Record<string, unknown> {
  assert(!result.isError, `the call failed: ${result.content[0]?.text}`);
  assert(result.structuredContent, "a structured result");
  // The text part is the same JSON, for clients that read only text.
  assertEquals(JSON.parse(result.content[0].text), result.structuredContent);
  return result.structuredContent;
}

Deno.test("mcp: each gate offers its tools, --allow wins over [mcp] allow, bad gates are refused", async () => {
  await withSkiff(async (skiff) => {
    const cases: [string[], string[]][] = [
      [[], READ_TOOLS],
      [["--allow", "send"], [...READ_TOOLS, "send_to_pane"]],
      [["--allow", "new,kill"], [...READ_TOOLS, "new_pane", "kill_pane"]],
      [["--allow", "ledger", "--allow", "seen"], [
        ...READ_TOOLS,
        "ledger_add",
        "ledger_update",
        "mark_seen",
      ]],
      [["--allow", "land"], [...READ_TOOLS, "land_pane"]],
      [["--allow", "all"], [
        ...READ_TOOLS,
        "send_to_pane",
        "new_pane",
        "land_pane",
        "ledger_add",
        "ledger_update",
        "mark_seen",
        "kill_pane",
      ]],
    ];
    for (const [args, tools] of cases) {
      const session = await connectMcp(skiff, args);
      try {
        assertEquals(await toolNames(session), tools, args.join(" "));
        const listed = (await session.client.listTools()).tools;
        for (const tool of listed) {
          assertEquals(tool.inputSchema.type, "object");
          assertEquals(tool.outputSchema?.type, "object", `${tool.name} has an output schema`);
          assert(tool.description && tool.description.length > 40, `${tool.name} is described`);
        }
      } finally {
        await session.close();
      }
    }

    await Deno.mkdir(join(skiff.root, "config"), { recursive: true });
    await Deno.writeTextFile(skiff.configFile, '[mcp]\nallow = ["seen", "kill"]\n');
    let session = await connectMcp(skiff);
    assertEquals(await toolNames(session), [...READ_TOOLS, "mark_seen", "kill_pane"]);
    await session.close();
    session = await connectMcp(skiff, ["--allow", "send"]);
    assertEquals(await toolNames(session), [...READ_TOOLS, "send_to_pane"]);
    await session.close();
    session = await connectMcp(skiff, ["--allow", "none"]);
    assertEquals(await toolNames(session), READ_TOOLS);
    await session.close();

    const bad = await skiff.run(["mcp", "--allow", "send,sned"]);
    assertEquals(bad.code, 2);
    assertEquals(
      bad.stderr,
      "skiff: Bad gate 'sned' in --allow: use send, new, land, ledger, seen, kill, all or none (comma-separated)\n",
    );
    await Deno.writeTextFile(skiff.configFile, '\n[mcp]\nallow = ["send", "everything"]\n');
    const badConfig = await skiff.run(["mcp"]);
    assertEquals(badConfig.code, 2);
    assertMatch(
      badConfig.stderr,
      /^skiff: .*projects\.toml:3:1: 'mcp\.allow' has 'everything', not a gate; must be a list of gates: send, new, land, ledger, seen, kill or all\n$/,
    );
    await Deno.writeTextFile(skiff.configFile, '[mcp]\nallow = "send"\n');
    assertEquals((await skiff.run(["mcp"])).code, 2);
    await Deno.writeTextFile(skiff.configFile, "[mcp]\nalow = []\n");
    assertMatch(
      (await skiff.run(["mcp"])).stderr,
      /unknown key 'alow' in \[mcp\]; did you mean 'allow'\?/,
    );
  });
});

Deno.test("mcp: a closed tool is refused with the flag that opens it, and the server lives on", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    const session = await connectMcp(skiff);
    const closed = [
      ["send_to_pane", { pane: "sh", text: "hi" }, "send"],
      ["new_pane", {}, "new"],
      ["land_pane", { pane: "sh" }, "land"],
      ["ledger_add", { task: "x" }, "ledger"],
      ["ledger_update", { id: "1", state: "done" }, "ledger"],
      ["mark_seen", { pane: "sh" }, "seen"],
      ["kill_pane", { pane: "sh" }, "kill"],
    ] as const;
    // Every gated tool is tried: a tool added behind a gate must be added here too.
    assertEquals(
      closed.map(([tool, , gate]) => [tool, gate]),
      TOOLS.filter((t) => t.gate !== null).map((t) => [t.name, t.gate]),
    );
    try {
      for (const [tool, args, gate] of closed) {
        const error = toolErrorOf(await call(session, tool, args));
        assertEquals(error.code, "usage", tool);
        assertEquals(
          error.message,
          `Tool ${tool} is not allowed: start skiff mcp with --allow ${gate} (or add "${gate}" to [mcp] allow in projects.toml)`,
        );
      }
      const unknown = toolErrorOf(await call(session, "drop_tables", {}));
      assertEquals([unknown.code, unknown.message], [
        "not_found",
        "No tool 'drop_tables'. See 'skiff mcp --help'",
      ]);
      // Nothing was done: the pane is there and no ledger was made.
      const listed = ok(await call(session, "list_panes"));
      assertEquals((listed.panes as { name: string }[]).map((p) => p.name), ["sh"]);
    } finally {
      await session.close();
    }
    const ledgerOnly = await connectMcp(skiff, ["--allow", "ledger"]);
    try {
      const error = toolErrorOf(
        await call(ledgerOnly, "ledger_add", { pane: "sh", task: "t", send: true }),
      );
      assertEquals(
        error.message,
        'Tool ledger_add with send is not allowed: start skiff mcp with --allow send (or add "send" to [mcp] allow in projects.toml)',
      );
    } finally {
      await ledgerOnly.close();
    }
  });
});

Deno.test("mcp: the pane tools, with good and bad input, give what the commands give with --json", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFakeAgent(skiff, "worker", { env: { FAKE_LOG: log } });
    await skiff.ok(["new", "--name", "sh", "--", ...BASH]);
    await skiff.waitForScreen("sh", /[$#] ?$/m);
    const session = await connectMcp(skiff, ["--allow", "all"]);
    try {
      // list_panes: the panes `skiff ls --json` lists, in its order, with the same keys.
      const listed = ok(await call(session, "list_panes"));
      const ls = await skiff.json<{ panes: Record<string, unknown>[] }>(["ls"]);
      assertEquals(Object.keys(listed), ["schema_version", "panes"]);
      const panes = listed.panes as Record<string, unknown>[];
      assertEquals(panes.map((p) => p.id), ls.panes.map((p) => p.id));
      assertEquals(panes.map((p) => Object.keys(p)), ls.panes.map((p) => Object.keys(p)));
      assertEquals(panes.map((p) => p.host), [null, null]);
      assertEquals(
        toolErrorOf(await call(session, "list_panes", { mark: "=x" })).message,
        "Bad mark '=x': use KEY or KEY=VALUE",
      );
      assertEquals(
        toolErrorOf(await call(session, "list_panes", { all_hosts: "yes" })).code,
        "usage",
      );

      // capture_pane: the same screen as `skiff capture --json`.
      const captured = ok(await call(session, "capture_pane", { pane: "sh" }));
      assertEquals(captured, await skiff.json(["capture", "sh"]));
      assertEquals(toolErrorOf(await call(session, "capture_pane", { pane: "nope" })), {
        code: "not_found",
        exit: 3,
        message: "No pane 'nope'. See 'skiff ls'",
        pane: "nope",
      } as never);
      const negative = toolErrorOf(
        await call(session, "capture_pane", { pane: "sh", scrollback: -1 }),
      );
      assertEquals(negative.code, "usage");
      assertMatch(negative.message, /^Bad input for capture_pane: 'scrollback': /);

      // send_to_pane: the guarded send; a refusal names why and types nothing.
      const sent = ok(
        await call(session, "send_to_pane", { pane: "worker", text: "Fix the build", enter: true }),
      );
      assertEquals([sent.pane, sent.name, sent.entered, sent.turn_started], [
        "p1",
        "worker",
        true,
        true,
      ]);
      await waitFor("the prompt to arrive", async () => (await loggedPrompts(log)).length === 1);
      assertEquals(await loggedPrompts(log), ["Fix the build"]);
      const shell = toolErrorOf(await call(session, "send_to_pane", { pane: "sh", text: "ls" }));
      assertEquals([shell.code, shell.exit], ["no_agent", 11]);
      const blank = toolErrorOf(
        await call(session, "send_to_pane", { pane: "worker", text: "  " }),
      );
      assertEquals([blank.code, blank.message], ["usage", "TEXT is empty"]);
      assertEquals(
        toolErrorOf(await call(session, "send_to_pane", { pane: "worker" })).code,
        "usage",
      );

      // wait_for_pane: until idle; a shell never gets there.
      const waited = ok(await call(session, "wait_for_pane", { pane: "worker", until: "idle" }));
      assertEquals([waited.name, waited.state], ["worker", "idle"]);
      const noAgent = toolErrorOf(
        await call(session, "wait_for_pane", { pane: "sh", until: "idle", timeout_seconds: 5 }),
      );
      assertEquals(noAgent.code, "no_agent");
      assertEquals(
        toolErrorOf(await call(session, "wait_for_pane", { pane: "sh", until: "asleep" })).code,
        "usage",
      );

      // mark_seen: what was cleared, as `skiff seen --json` says it.
      await skiff.ok(["wait", "worker", "--until", "idle"]);
      const seen = ok(await call(session, "mark_seen", { pane: "worker" }));
      assertEquals([seen.pane, seen.was_unread], ["p1", true]);
      const again = ok(await call(session, "mark_seen", { pane: "worker" }));
      assertEquals(again.was_unread, false);
      assertEquals(
        toolErrorOf(await call(session, "mark_seen", { pane: "p99" })).code,
        "not_found",
      );

      // new_pane: a pane as `skiff new --json` prints it; a bad agent starts nothing.
      const made = ok(
        await call(session, "new_pane", { name: "made", command: [...BASH], cwd: skiff.root }),
      );
      assertEquals(Object.keys(made), [
        "schema_version",
        "id",
        "name",
        "worktree",
        "branch",
        "worktree_reopened",
        "pane",
        "host",
        "size_raised_from",
        "hooks_unwired",
      ]);
      assertEquals([made.id, made.name, made.host, made.worktree], ["p3", "made", null, null]);
      assertEquals((made.pane as { cwd: string }).cwd, skiff.root);
      const noSuch = toolErrorOf(await call(session, "new_pane", { agent: "nosuch" }));
      assertEquals([noSuch.code, noSuch.message], [
        "not_found",
        "No agent 'nosuch'. See 'skiff agents'",
      ]);
      const taken = toolErrorOf(
        await call(session, "new_pane", { name: "made", command: [...BASH] }),
      );
      assertEquals(taken.code, "conflict");
      assertEquals(
        toolErrorOf(await call(session, "new_pane", { branch: "b" })).message,
        "branch and base go with worktree",
      );

      // kill_pane: `{killed: pane}`; then it is gone.
      const killed = ok(await call(session, "kill_pane", { pane: "made" }));
      assertEquals((killed.killed as { id: string }).id, "p3");
      assertEquals(
        toolErrorOf(await call(session, "kill_pane", { pane: "made" })).code,
        "not_found",
      );
      assertEquals(toolErrorOf(await call(session, "kill_pane", {})).code, "usage");
      const after = await skiff.json<{ panes: { name: string }[] }>(["ls"]);
      assertEquals(after.panes.map((p) => p.name), ["worker", "sh"]);
    } finally {
      await session.close();
    }
    assertEquals(session.stderr(), "");
  });
});

/**
 * `value` with what differs by nature between two panes made alike (their
 * ids, names and sessions, process ids, generations, times, durations, the
 * title the agent sets on its own clock and the conversation id an agent's
 * launch chooses) put as placeholders, so the
 * rest must be equal.
 */
function alike(value: unknown, names: Record<string, string>): unknown {
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const text = (s: string) => {
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(s)) return "<time>";
    for (const [from, to] of Object.entries(names)) s = s.split(from).join(to);
    return s.replace(uuid, "<uuid>");
  };
  const byNature = new Set(["pid", "generation", "elapsed_ms", "agent_wait_ms", "waited_ms"]);
  const walk = (v: unknown, key?: string): unknown => {
    if (key !== undefined && byNature.has(key) && typeof v === "number") return "<n>";
    // The agent sets its title on its own clock: ready may be told before or after it.
    if (key === "title" && typeof v === "string") return "<title>";
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    return v;
  };
  return walk(value);
}

Deno.test("mcp: new_pane (an agent, wait_ready), send_to_pane, wait_for_pane, mark_seen and kill_pane give what their commands print with --json", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const session = await connectMcp(skiff, ["--allow", "all"], { cwd: skiff.root });
    const cwd = skiff.root;
    try {
      // The same operation on two panes made alike: one through the tool, one through the command.
      const made = ok(
        await call(session, "new_pane", {
          agent: "fake",
          name: "by-tool",
          cwd,
          wait_ready: true,
          timeout_seconds: 60,
        }),
      );
      const printed = await skiff.json([
        ...newFakeAgentArgs("by-cli", { cwd }),
        "--wait-ready",
        "--timeout",
        "60",
      ], { cwd });
      const tool = { [made.id as string]: "<id>", "by-tool": "<name>" };
      const cli = { [printed.id as string]: "<id>", "by-cli": "<name>" };
      // A pane's session's id (its name is the pane's, placed already).
      const sessions = (pane: unknown) => ({
        [(pane as { session: string }).session]: "<session>",
      });
      assertEquals(
        alike(made, { ...sessions(made.pane), ...tool }),
        alike({ schema_version: made.schema_version, ...printed }, {
          ...sessions(printed.pane),
          ...cli,
        }),
      );
      assertEquals((made.pane as { state: string; agent: string }).state, "idle");
      assertEquals((made.pane as { state: string; agent: string }).agent, "fake");

      const sent = ok(
        await call(session, "send_to_pane", { pane: "by-tool", text: "Do it", enter: true }),
      );
      assertEquals(
        alike(sent, tool),
        alike(await skiff.json(["send", "by-cli", "Do it", "--enter"]), cli),
      );
      assertEquals(sent.turn_started, true);

      const waited = ok(await call(session, "wait_for_pane", { pane: "by-tool", until: "idle" }));
      assertEquals(
        alike(waited, tool),
        alike(await skiff.json(["wait", "by-cli", "--until", "idle"]), cli),
      );

      const seen = ok(await call(session, "mark_seen", { pane: "by-tool" }));
      assertEquals(alike(seen, tool), alike(await skiff.json(["seen", "by-cli"]), cli));
      assertEquals(seen.was_unread, true);

      const killed = ok(await call(session, "kill_pane", { pane: "by-tool" }));
      const killedByCli = await skiff.json(["kill", "by-cli"]);
      assertEquals(
        alike(killed, { ...sessions(killed.killed), ...tool }),
        alike(killedByCli, { ...sessions(killedByCli.killed), ...cli }),
      );
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp: pane_diff is skiff diff --json; a pane with no worktree is not_found", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    const session = await connectMcp(skiff, ["--allow", "new"]);
    try {
      const made = ok(
        await call(session, "new_pane", { project: "demo", worktree: "calc", command: [...BASH] }),
      );
      assertEquals([made.name, made.branch], ["calc", "skiff/calc"]);
      const path = defaultWorktreePath(skiff, "demo", "calc");
      await Deno.writeTextFile(join(path, "added.txt"), "one\ntwo\n");
      commitAll(path, "add a file");
      const diff = ok(await call(session, "pane_diff", { pane: "calc" }));
      assertEquals(diff, await skiff.json(["diff", "calc"]));
      assertEquals([diff.files, diff.added, diff.removed], [1, 2, 0]);
      assertMatch(diff.patch as string, /\+one\n\+two/);
      const stat = ok(await call(session, "pane_diff", { pane: "calc", stat: true }));
      assertEquals(stat, await skiff.json(["diff", "calc", "--stat"]));
      assertEquals("patch" in stat, false);
      await skiff.ok(["new", "--name", "plain", "--", ...BASH]);
      const none = toolErrorOf(await call(session, "pane_diff", { pane: "plain" }));
      assertEquals(none.code, "not_found");
      assertEquals(toolErrorOf(await call(session, "pane_diff", { pane: "" })).code, "usage");
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp: land_pane is skiff land --json: a dry run changes nothing, a landing moves the base, a conflict and another project's worktree change nothing", async () => {
  await withSkiff(async (skiff) => {
    const repo = await landingRepo(skiff, "demo", { "notes.txt": "base\n" });
    await landingRepo(skiff, "other", { "other.txt": "base\n" });
    const fix = await shellInWorktree(skiff, "demo", "fix");
    await commitFiles(fix, { "fix.txt": "fixed\n" }, "Fix it");
    const session = await connectMcp(skiff, ["--allow", "land"]);
    const scoped = await connectMcp(skiff, ["--allow", "land", "--project", "other"]);
    try {
      // A dry run says what would land and changes nothing.
      const before = await snapshot(repo);
      const dry = ok(await call(session, "land_pane", { pane: "fix", dry_run: true }));
      assertEquals([dry.outcome, dry.dry_run], ["dry_run", true]);
      assertEquals(dry, await skiff.json(["land", "fix", "--dry-run"]));
      assertEquals((dry.commits as { subject: string }[]).map((c) => c.subject), ["Fix it"]);
      assertEquals(await snapshot(repo), before);
      // Limited to another project, the worktree is not there, and nothing changes.
      const hidden = toolErrorOf(await call(scoped, "land_pane", { pane: "fix" }));
      assertEquals(hidden.code, "not_found");
      assertEquals(await snapshot(repo), before);
      // A landing: the base's checkout is fast-forwarded onto the worktree's commit.
      const landed = ok(await call(session, "land_pane", { pane: "fix" }));
      assertEquals(landed.outcome, "landed");
      assertEquals(git(repo, "log", "-1", "--format=%s", "main").trim(), "Fix it");
      assertEquals(await Deno.readTextFile(join(repo, "fix.txt")), "fixed\n");
      assertEquals(
        landed.range,
        `${(landed.base as { before: string }).before}..${git(repo, "rev-parse", "main").trim()}`,
      );
      // A conflict is a tool error with the CLI's reason and the files, and changes nothing.
      await commitFiles(repo, { "notes.txt": "main's\n" }, "Main's notes");
      await commitFiles(fix, { "notes.txt": "the worker's\n" }, "Worker's notes");
      const again = await snapshot(repo);
      const worktree = await snapshot(fix);
      const conflict = toolErrorOf(await call(session, "land_pane", { pane: "fix" })) as {
        code: string;
        conflicts?: string[];
      };
      assertEquals([conflict.code, conflict.conflicts], ["merge_conflict", ["notes.txt"]]);
      assertEquals(await snapshot(repo), again);
      assertEquals(await snapshot(fix), worktree);
      // Bad input is refused by the tool's schema before anything runs.
      assert((await call(session, "land_pane", { pane: "fix", strategy: "octopus" })).isError);

      // Two worktrees alike, one landed by the tool, one by the command: the same JSON, but for
      // the commits and the names.
      const byTool = await shellInWorktree(skiff, "demo", "by-tool");
      const byCli = await shellInWorktree(skiff, "demo", "by-cli");
      await commitFiles(byTool, { "by-tool.txt": "one\n" }, "Add a file");
      await commitFiles(byCli, { "by-cli.txt": "one\n" }, "Add a file");
      const toolLanded = ok(await call(session, "land_pane", { pane: "by-tool" }));
      const cliLanded = await skiff.json(["land", "by-cli"]);
      const shas = (r: Record<string, unknown>) => {
        const found = JSON.stringify(r).match(/\b[0-9a-f]{40}\b|\b[0-9a-f]{7,12}\b/g) ?? [];
        return Object.fromEntries(found.map((sha) => [sha, "<sha>"]));
      };
      const paneOf = (r: Record<string, unknown>) => ({
        [(r.pane as { id: string }).id]: "<id>",
        [(r.worktree as { id: string }).id]: "<worktree>",
      });
      assertEquals(
        alike(toolLanded, { ...shas(toolLanded), ...paneOf(toolLanded), "by-tool": "<name>" }),
        alike(cliLanded, { ...shas(cliLanded), ...paneOf(cliLanded), "by-cli": "<name>" }),
      );
      assertEquals(toolLanded.outcome, "landed");
    } finally {
      await session.close();
      await scoped.close();
    }
  });
});

Deno.test("mcp: the ledger tools add, send, list, show and update rows as the ledger commands do", async () => {
  await withSkiff(async (skiff) => {
    await useFakeAgent(skiff);
    const log = join(skiff.root, "prompts.log");
    await startFakeAgent(skiff, "worker", { env: { FAKE_LOG: log } });
    const session = await connectMcp(skiff, ["--allow", "ledger,send"]);
    try {
      const plan = ok(await call(session, "ledger_add", { task: "Release 2.0" }));
      const planRow = plan.row as { uid: string; kind: string };
      assertEquals(planRow.kind, "plan");
      const task = ok(
        await call(session, "ledger_add", {
          pane: "worker",
          task: "Review the parser",
          parent: planRow.uid,
          ref: "JIRA-1",
        }),
      );
      const taskRow = task.row as { uid: string; pane: string; pane_name: string; state: string };
      assertEquals([taskRow.pane, taskRow.pane_name, taskRow.state], ["p1", "worker", "pending"]);
      assertEquals(
        ok(await call(session, "ledger_show", { id: taskRow.uid })),
        await skiff.json(["ledger", "show", taskRow.uid]),
      );
      assertEquals(
        ok(await call(session, "ledger_list", { all: true })),
        await skiff.json(["ledger", "ls", "--all"]),
      );
      const listed = ok(await call(session, "ledger_list", { state: ["pending"] }));
      assertEquals(
        (listed.rows as { tasks: { uid: string }[] }[])[0].tasks.map((t) => t.uid),
        [taskRow.uid],
      );

      // With send: delivered as `ledger add --send --enter` does, with the row's result path.
      const delivered = ok(
        await call(session, "ledger_add", {
          pane: "worker",
          task: "Write the notes",
          send: true,
          enter: true,
        }),
      );
      const sentRow = delivered.row as { uid: string; state: string; result: string };
      assertEquals([sentRow.state, delivered.exit], ["sent", 0]);
      await waitFor("the task to arrive", async () => (await loggedPrompts(log)).length === 1);
      assertMatch(
        (await loggedPrompts(log))[0],
        new RegExp(`^Write the notes\\n\\n\\(Skiff task ${sentRow.uid}\\)`),
      );
      // A send the guard refuses: a tool error naming why, with the row still told.
      const refused = await call(session, "ledger_add", {
        pane: "worker",
        task: "Another",
        send: true,
        enter: true,
      });
      const error = toolErrorOf(refused);
      assertEquals(error.code, "working");
      const kept = JSON.parse(refused.content[1].text) as { row: { state: string; uid: string } };
      assertEquals(kept.row.state, "pending");
      assertEquals((error as unknown as { uid: string }).uid, kept.row.uid);

      const updated = ok(await call(session, "ledger_update", { id: taskRow.uid, state: "done" }));
      assertEquals((updated.row as { state: string }).state, "done");
      assertEquals(
        updated,
        await skiff.json(["ledger", "show", taskRow.uid]).then((s) => ({
          schema_version: s.schema_version,
          row: s.row,
        })),
      );

      for (
        const [tool, args, code] of [
          ["ledger_add", { pane: "nope", task: "x" }, "not_found"],
          ["ledger_add", { task: "x", parent: "ffff0000" }, "not_found"],
          ["ledger_add", { task: "" }, "usage"],
          ["ledger_add", { task: "plan", send: true }, "usage"],
          ["ledger_show", { id: "ffff0000" }, "not_found"],
          ["ledger_show", {}, "usage"],
          ["ledger_list", { state: ["asleep"] }, "usage"],
          ["ledger_list", { plan: "ffff0000" }, "not_found"],
          ["ledger_update", { id: taskRow.uid }, "usage"],
          ["ledger_update", { id: "ffff0000", state: "done" }, "not_found"],
          ["ledger_update", { id: taskRow.uid, state: "finished" }, "usage"],
          ["ledger_update", { id: planRow.uid, pane: "worker" }, "usage"],
        ] as const
      ) {
        assertEquals(toolErrorOf(await call(session, tool, args)).code, code, JSON.stringify(args));
      }
    } finally {
      await session.close();
    }
  });
});

Deno.test("mcp --help lists every tool the server offers, each with its gate", async () => {
  await withSkiff(async (skiff) => {
    const help = await skiff.ok(["mcp", "--help"]);
    const session = await connectMcp(skiff, ["--allow", "all"]);
    try {
      const tools = (await session.client.listTools()).tools;
      for (const tool of tools) {
        const gate = tool.description!.match(/Offered because the (\w+) gate is open/)?.[1];
        assertMatch(
          help,
          new RegExp(`^  ${tool.name} +${gate ? `--allow ${gate}` : "always"} `, "m"),
          tool.name,
        );
      }
      assertEquals(tools.length, 13);
    } finally {
      await session.close();
    }
    assertMatch(help, /^ {2}land +land a pane's worktree: land_pane$/m);
    assertMatch(help, /^ {2}send +type into agents: send_to_pane, ledger_add with send$/m);
  });
});
