/**
 * The checkout's `./skiff` launcher on a machine without Deno: it installs
 * Deno from npm once, says so, and says clearly when that fails.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { tempDir } from "../helpers/ledger.ts";
import { ROOT } from "../helpers/skiff.ts";

/**
 * A copy of the launcher and its Deno finder in `dir`, with a PATH that has
 * bash and the core tools but no Deno, and `npm` as the given script.
 */
async function checkoutWithoutDeno(
  dir: string,
  npmScript: string,
): Promise<Record<string, string>> {
  await Deno.mkdir(join(dir, "checkout", "scripts"), { recursive: true });
  await Deno.copyFile(join(ROOT, "skiff"), join(dir, "checkout", "skiff"));
  await Deno.copyFile(
    join(ROOT, "scripts", "deno.sh"),
    join(dir, "checkout", "scripts", "deno.sh"),
  );
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "npm"), `#!/bin/bash\n${npmScript}\n`, { mode: 0o755 });
  return { PATH: `${bin}:/usr/bin:/bin`, HOME: join(dir, "home") };
}

async function runLauncher(dir: string, env: Record<string, string>) {
  const out = await new Deno.Command(join(dir, "checkout", "skiff"), {
    args: ["--version"],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("the launcher says in one line why it could not install Deno, with npm's own error, exit 4", async () => {
  await using dir = await tempDir();
  const env = await checkoutWithoutDeno(
    dir.path,
    'echo "npm error code SELF_SIGNED_CERT_IN_CHAIN" >&2; exit 1',
  );
  const result = await runLauncher(dir.path, env);
  assertEquals(result.code, 4, result.stderr);
  assertEquals(result.stdout, "");
  const lines = result.stderr.trim().split("\n");
  assertMatch(lines[0], /^skiff: installing deno@2\.9\.6 from npm into \.tools\/deno \(once\)/);
  assertEquals(lines[1], "npm error code SELF_SIGNED_CERT_IN_CHAIN");
  assertMatch(
    lines[2],
    /^skiff: could not install deno@2\.9\.6 from npm \(see npm's error above\)/,
  );
  assertEquals(lines.length, 3);
});

Deno.test("the launcher installs Deno from npm once, then runs Skiff with it", async () => {
  await using dir = await tempDir();
  // A stand-in `npm install --prefix P deno@V` that puts a `deno` there which
  // reports 2.9.6 and prints the arguments it runs with.
  const env = await checkoutWithoutDeno(
    dir.path,
    [
      'prefix="$3"',
      'echo "$@" >> "$prefix/../npm-calls"',
      'mkdir -p "$prefix/node_modules/deno"',
      `printf '#!/bin/bash\\nif [ "$1" = --version ]; then echo "deno 2.9.6"; else echo "ran: $*"; fi\\n' > "$prefix/node_modules/deno/deno"`,
      'chmod +x "$prefix/node_modules/deno/deno"',
    ].join("\n"),
  );
  const first = await runLauncher(dir.path, env);
  assertEquals(first.code, 0, first.stderr);
  assertMatch(first.stderr, /installing deno@2\.9\.6 from npm/);
  assertMatch(first.stdout, /^ran: run -A -q .*\/checkout\/main\.ts --version$/m);
  const second = await runLauncher(dir.path, env);
  assertEquals(second.code, 0, second.stderr);
  assertEquals(second.stderr, "");
  const calls = await Deno.readTextFile(join(dir.path, "checkout", ".tools", "npm-calls"));
  assert(calls.trim().split("\n").length === 1, `npm ran more than once: ${calls}`);
  assertMatch(calls, /^install --prefix .*deno@2\.9\.6/);
});
