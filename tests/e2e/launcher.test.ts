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

/**
 * A copy of the launcher and its Deno finder in `dir`, with a `deno` on PATH
 * that reports 2.9.6, logs each `install` it is asked for, runs `install`
 * as `installScript` says, and prints what it would run otherwise.
 */
async function checkoutWithFakeDeno(
  dir: string,
  installScript: string,
): Promise<{ env: Record<string, string>; calls: string }> {
  await Deno.mkdir(join(dir, "checkout", "scripts"), { recursive: true });
  await Deno.copyFile(join(ROOT, "skiff"), join(dir, "checkout", "skiff"));
  await Deno.copyFile(
    join(ROOT, "scripts", "deno.sh"),
    join(dir, "checkout", "scripts", "deno.sh"),
  );
  await Deno.writeTextFile(join(dir, "checkout", "deno.lock"), "{}\n");
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  const calls = join(dir, "deno-calls");
  await Deno.writeTextFile(
    join(bin, "deno"),
    [
      "#!/bin/bash",
      'if [ "$1" = --version ]; then echo "deno 2.9.6"; exit 0; fi',
      `if [ "$1" = install ]; then echo "$* in $PWD" >> '${calls}'; ${installScript}; fi`,
      'echo "ran: $*"',
    ].join("\n") + "\n",
    { mode: 0o755 },
  );
  return { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: join(dir, "home") }, calls };
}

Deno.test("issue 28, case 6: the launcher prepares the packages once, and again when the lock file changes", async () => {
  await using dir = await tempDir();
  const { env, calls } = await checkoutWithFakeDeno(dir.path, "exit 0");
  const first = await runLauncher(dir.path, env);
  assertEquals([first.code, first.stderr], [0, ""]);
  assertMatch(first.stdout, /^ran: run -A -q .*\/checkout\/main\.ts --version\n$/);
  const second = await runLauncher(dir.path, env);
  assertEquals([second.code, second.stderr], [0, ""]);
  let lines = (await Deno.readTextFile(calls)).trim().split("\n");
  assertEquals(lines.length, 1, `one preparation: ${lines}`);
  assertMatch(lines[0], /^install --quiet in .*\/checkout$/);
  // A newer lock file (a pull that changed the packages): prepared again, once.
  const later = new Date(Date.now() + 60_000);
  await Deno.utime(join(dir.path, "checkout", "deno.lock"), later, later);
  assertEquals((await runLauncher(dir.path, env)).code, 0);
  lines = (await Deno.readTextFile(calls)).trim().split("\n");
  assertEquals(lines.length, 2, `prepared again: ${lines}`);
  // Another DENO_DIR has caches of its own to fill.
  assertEquals((await runLauncher(dir.path, { ...env, DENO_DIR: join(dir.path, "d2") })).code, 0);
  assertEquals((await Deno.readTextFile(calls)).trim().split("\n").length, 3);
});

Deno.test("issue 28, case 6: a preparation that fails shows Deno's error and one line, exit 4, and runs nothing", async () => {
  await using dir = await tempDir();
  const { env } = await checkoutWithFakeDeno(
    dir.path,
    'echo "error: failed to fetch from registry.npmjs.org" >&2; exit 1',
  );
  const result = await runLauncher(dir.path, env);
  assertEquals([result.code, result.stdout], [4, ""]);
  assertEquals(result.stderr.trim().split("\n"), [
    "error: failed to fetch from registry.npmjs.org",
    "skiff: could not prepare its npm packages (see Deno's error above); check access to the npm registry",
  ]);
});

Deno.test("the launcher remembers the Deno it chose: warm runs start no process of their own until that Deno changes", async () => {
  await using dir = await tempDir();
  const versions = join(dir.path, "version-calls");
  const { env } = await checkoutWithFakeDeno(dir.path, "exit 0");
  // The stand-in logs each version check; scripts/deno.sh makes one when it chooses.
  const denoPath = join(dir.path, "bin", "deno");
  const script = await Deno.readTextFile(denoPath);
  await Deno.writeTextFile(
    denoPath,
    script.replace(
      'if [ "$1" = --version ]; then',
      `if [ "$1" = --version ]; then echo x >> '${versions}';`,
    ),
  );
  const checks = async () =>
    (await Deno.readTextFile(versions).catch(() => "")).split("\n").length - 1;
  for (let i = 0; i < 3; i++) assertEquals((await runLauncher(dir.path, env)).code, 0);
  assertEquals(await checks(), 1, "one choice for three runs");
  // A deno replaced at the same place since the choice is looked at again, once.
  const choice = join(dir.path, "checkout", ".tools", "deno-choice");
  const [chosen, replaced] = [new Date(Date.now() - 120_000), new Date(Date.now() - 60_000)];
  await Deno.utime(choice, chosen, chosen);
  await Deno.utime(denoPath, replaced, replaced);
  for (let i = 0; i < 2; i++) assertEquals((await runLauncher(dir.path, env)).code, 0);
  assertEquals(await checks(), 2);
  // So is another deno first on PATH, and asking for the pinned one.
  const other = join(dir.path, "bin2");
  await Deno.mkdir(other);
  await Deno.copyFile(denoPath, join(other, "deno"));
  await Deno.chmod(join(other, "deno"), 0o755);
  const moved = { ...env, PATH: `${other}:${env.PATH}` };
  const ran = await runLauncher(dir.path, moved);
  assertEquals(ran.code, 0, ran.stderr);
  assertEquals(await checks(), 3);
  assertEquals((await runLauncher(dir.path, moved)).code, 0);
  assertEquals(await checks(), 3);
});
