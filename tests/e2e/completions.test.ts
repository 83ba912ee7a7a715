import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { BASH, withSkiff } from "../helpers/skiff.ts";
import { addProject, makeRepo } from "../helpers/git.ts";

/** Runs bash completion for `words` (the cursor at the last) and returns COMPREPLY. */
async function bashComplete(
  script: string,
  env: Record<string, string>,
  words: string[],
): Promise<string[]> {
  const array = words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
  const program = [
    `source ${script} || exit 9`,
    `COMP_WORDS=(${array})`,
    `COMP_CWORD=${words.length - 1}`,
    "_skiff_complete",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const output = await new Deno.Command("bash", {
    args: ["--norc", "--noprofile", "-c", program],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
  return text.split("\n").filter((line) => line !== "");
}

Deno.test("completions: bash accepts the script and completes a command and a pane name", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "webserver", "--", ...BASH]);
    const script = join(skiff.root, "skiff.bash");
    await Deno.writeTextFile(script, await skiff.ok(["completions", "bash"]));
    const syntax = await new Deno.Command("bash", { args: ["-n", script] }).output();
    assertEquals(syntax.code, 0, "bash -n rejected the script");
    assertEquals(await bashComplete(script, skiff.env, ["skiff", "atta"]), ["attach"]);
    assertEquals(await bashComplete(script, skiff.env, ["skiff", "attach", "webs"]), [
      "webserver",
    ]);
    const options = await bashComplete(script, skiff.env, ["skiff", "send", "webserver", "--en"]);
    assertEquals(options, ["--enter"]);
  });
});

Deno.test("completions: an unknown shell is refused with exit 2", async () => {
  await withSkiff(async (skiff) => {
    const result = await skiff.run(["completions", "tcsh"]);
    assertEquals(result.code, 2);
    assert(/Bad value 'tcsh' for SHELL: use bash, zsh or fish/.test(result.stderr), result.stderr);
  });
});

Deno.test("completions: worktree rm completes the worktrees Skiff made", async () => {
  await withSkiff(async (skiff) => {
    const repo = await makeRepo(join(skiff.root, "repo"));
    await addProject(skiff, "demo", repo);
    await skiff.ok(["new", "--project", "demo", "--worktree", "login", "--", ...BASH]);
    const script = join(skiff.root, "skiff.bash");
    await Deno.writeTextFile(script, await skiff.ok(["completions", "bash"]));
    assertEquals(await bashComplete(script, skiff.env, ["skiff", "worktree", "rm", "lo"]), [
      "login",
    ]);
    assertEquals(await bashComplete(script, skiff.env, ["skiff", "worktree", "rm", "demo/"]), [
      "demo/login",
    ]);
  });
});
