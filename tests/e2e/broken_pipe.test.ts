/**
 * Issue 28, case 8: a reader that closes the pipe (`skiff daemon status |
 * head -1`) ends every command quietly, with exit 0, never as an internal
 * error. Each command runs in a real shell pipeline: once into `head -1`,
 * and once into a reader that has closed its end before the command writes
 * anything, so the broken pipe is met on every run, not by chance.
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, MAIN, type SkiffEnv, waitFor, withSkiff } from "../helpers/skiff.ts";

/** The outcome of one shell pipeline: the command's exit, what the reader got, stderr. */
interface Piped {
  code: number;
  read: string;
  stderr: string;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `skiff args… | head -1` in bash; the exit is skiff's own (PIPESTATUS), not head's. */
async function intoHead(skiff: SkiffEnv, args: string[]): Promise<Piped> {
  const program = [Deno.execPath(), "run", "-A", "-q", MAIN, ...args].map(quote).join(" ");
  return await pipeline(skiff, `${program} 2>"$ERR" | head -1; exit "\${PIPESTATUS[0]}"`);
}

/**
 * `skiff args…` whose stdout is a pipe that no one reads any more: the
 * reader closes its end and says so, and only then does skiff start.
 */
async function intoClosed(skiff: SkiffEnv, args: string[]): Promise<Piped> {
  const program = [Deno.execPath(), "run", "-A", "-q", MAIN, ...args].map(quote).join(" ");
  const gone = join(skiff.root, `gone-${crypto.randomUUID()}`);
  return await pipeline(
    skiff,
    `{ until [ -e ${quote(gone)} ]; do sleep 0.01; done; ${program} 2>"$ERR"; } ` +
      `| { exec <&-; : > ${quote(gone)}; }; exit "\${PIPESTATUS[0]}"`,
  );
}

async function pipeline(skiff: SkiffEnv, script: string): Promise<Piped> {
  const err = join(skiff.root, `stderr-${crypto.randomUUID()}`);
  const output = await new Deno.Command("bash", {
    args: ["-c", script],
    env: { ...skiff.env, ERR: err },
    clearEnv: true,
    cwd: skiff.env.HOME,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return {
    code: output.code,
    read: new TextDecoder().decode(output.stdout),
    stderr: await Deno.readTextFile(err),
  };
}

Deno.test("issue 28, case 8: a reader that closes the pipe ends every command quietly, exit 0", async () => {
  await withSkiff(async (skiff) => {
    await skiff.ok(["new", "--name", "web", "--", ...BASH]);
    // Far more than a pipe holds (its history keeps 2000 lines of 90 characters, 180 KB):
    // skiff is still writing when head leaves.
    const lines = join(skiff.root, "lines.txt");
    const long = "x".repeat(80);
    await Deno.writeTextFile(
      lines,
      Array.from({ length: 20_000 }, (_, i) => `line ${i} ${long}`).join("\n") + "\n",
    );
    await skiff.ok(["new", "--name", "big", "--", "sh", "-c", `cat ${lines}; exec sleep 600`]);
    await skiff.waitForScreen("big", /^line 19999 x+$/m, { timeout: 20_000 });
    await skiff.ok(["ledger", "add", "--pane", "web", "--task", "a first task"]);

    const commands: { args: string[]; first: RegExp }[] = [
      { args: ["daemon", "status"], first: /^skiffd \S+ running, pid \d+/ },
      { args: ["ls"], first: /^ID +NAME/ },
      { args: ["ls", "--json"], first: /^\{"schema_version"/ },
      { args: ["agents"], first: /\S/ },
      { args: ["ledger", "ls"], first: /\S/ },
      { args: ["ledger", "ls", "--json"], first: /^\{"schema_version"/ },
      { args: ["--help"], first: /^Usage: skiff/ },
      { args: ["completions", "bash"], first: /\S/ },
      // A lot of output, written while head has gone.
      { args: ["capture", "big", "--scrollback", "20000"], first: /^line \d+ x+\n$/ },
    ];
    for (const { args, first } of commands) {
      const what = `skiff ${args.join(" ")}`;
      const head = await intoHead(skiff, args);
      assertEquals([head.code, head.stderr], [0, ""], `${what} | head -1`);
      assertMatch(head.read, first, `${what} | head -1`);
      const closed = await intoClosed(skiff, args);
      assertEquals([closed.code, closed.stderr, closed.read], [0, "", ""], `${what} | (closed)`);
    }

    // A command that follows: the first event goes to head, the next one meets the closed pipe.
    let ended = false;
    const following = intoHead(skiff, ["events", "--type", "session-marked"]).finally(() =>
      ended = true
    );
    for (let n = 0; !ended; n++) {
      await skiff.ok(["mark", "web", `n=${n}`]);
      await waitFor("events to end or take the next mark", () => ended, { timeout: 300 })
        .catch(() => {});
    }
    const followed = await following;
    assertEquals([followed.code, followed.stderr], [0, ""], "skiff events | head -1");
    assertMatch(followed.read, /session-marked/);
  });
});
