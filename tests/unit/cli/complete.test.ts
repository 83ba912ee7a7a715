import { assert, assertEquals } from "../../helpers/assert.ts";
import { COMMANDS } from "../../../cmd/loaders.ts";
import { complete, type Completion, completionScript } from "../../../lib/cli/complete.ts";
import type { CompleteKind } from "../../../lib/cli/spec.ts";

const asked: CompleteKind[] = [];
const values = (kind: CompleteKind) => {
  asked.push(kind);
  const table: Partial<Record<CompleteKind, string[]>> = {
    pane: ["web", "p1", "worker"],
    project: ["api", "site"],
    agent: ["claude", "codex"],
    task: ["3f2a9c1b"],
  };
  return Promise.resolve(table[kind] ?? []);
};

async function offered(typed: string[]): Promise<Completion> {
  return await complete(COMMANDS, typed, values);
}

async function words(typed: string[]): Promise<string[]> {
  const result = await offered(typed);
  assert(result.kind === "words", `expected words for ${typed}, got ${result.kind}`);
  return result.words;
}

Deno.test("complete: command names, and global options at the top", async () => {
  assertEquals(await words(["da"]), ["daemon", "dash"]);
  assertEquals(await words(["dae"]), ["daemon"]);
  assert((await words([""])).includes("ledger"));
  assertEquals(await words(["--v"]), ["--version"]);
});

Deno.test("complete: subcommands, then their options", async () => {
  assertEquals(await words(["daemon", "st"]), ["start", "status", "stop"]);
  assert((await words(["ledger", "add", "--"])).includes("--task"));
  assert((await words(["ledger", "add", "--"])).includes("--json"));
});

Deno.test("complete: pane, project, agent and task values from the source", async () => {
  assertEquals(await words(["attach", "w"]), ["web", "worker"]);
  assertEquals(await words(["new", "--project", ""]), ["api", "site"]);
  assertEquals(await words(["new", "--agent", "c"]), ["claude", "codex"]);
  assertEquals(await words(["ledger", "send", "3f"]), ["3f2a9c1b"]);
  // Only the first argument of keys is a pane.
  assertEquals(await words(["keys", "web", "w"]), []);
});

Deno.test("complete: choices, folders, and files after --", async () => {
  assertEquals(await words(["wait", "web", "--until", ""]), [
    "exited",
    "idle",
    "shell",
    "waiting",
    "working",
  ]);
  assertEquals((await offered(["new", "--cwd", ""])).kind, "dirs");
  assertEquals((await offered(["new", "--", "ls", ""])).kind, "files");
  assertEquals(await words(["completions", ""]), ["bash", "fish", "zsh"]);
});

Deno.test("completionScript: each shell's script calls the helper with the words", () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const script = completionScript(shell, "'/opt/skiff' __complete --");
    assert(script.includes("'/opt/skiff' __complete --"), `${shell}: ${script}`);
  }
});
