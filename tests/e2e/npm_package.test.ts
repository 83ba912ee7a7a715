/**
 * The npm package end to end: `npm pack` of this checkout, `npm install -g`
 * into an empty prefix with a fresh HOME (so a fresh npm cache) and a PATH
 * with node and npm but no deno, then the installed `skiff` runs a pane round
 * trip and a ledger round trip, and `npx` runs it too.
 *
 * Slow (npm fetches the Deno runtime, about 45 MB): one install per run.
 * It needs the npm registry and nothing else.
 */

import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { BASH, decodeOutput, pidAlive, ROOT, SkiffEnv, waitFor } from "../helpers/skiff.ts";
import { VERSION } from "../../lib/version.ts";

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  program: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<Result> {
  const output = await new Deno.Command(program, {
    args,
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return decodeOutput(output);
}

function must(result: Result, what: string): string {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The first executable called `name` on the current PATH. */
function onPath(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const info = Deno.statSync(join(dir, name));
      if (info.isFile && (info.mode ?? 0) & 0o111) return join(dir, name);
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/**
 * A PATH with node, npm and npx (linked into `bin`) and the system folders
 * that hold no deno.
 */
async function pathWithoutDeno(bin: string): Promise<string> {
  await Deno.mkdir(bin, { recursive: true });
  for (const tool of ["node", "npm", "npx"]) {
    const found = onPath(tool);
    if (!found) throw new Error(`${tool} is not on PATH`);
    await Deno.symlink(found, join(bin, tool));
  }
  const system = ["/usr/local/bin", "/usr/bin", "/bin"].filter((dir) => {
    try {
      Deno.statSync(join(dir, "deno"));
      return false;
    } catch {
      return true;
    }
  });
  return [bin, ...system].join(":");
}

/**
 * This environment, minus anything that points at Deno, npm's current run or
 * another Skiff, with `overrides` on top. Proxy and certificate settings stay,
 * so npm reaches its registry the way it does here.
 */
function cleanEnv(overrides: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(Deno.env.toObject())) {
    if (/^(DENO_|SKIFF_|npm_|NPM_CONFIG_PREFIX$)/.test(key)) continue;
    env[key] = value;
  }
  // The user's npm config (a registry mirror, say), read from where it is.
  const userConfig = join(Deno.env.get("HOME") ?? "/nonexistent", ".npmrc");
  try {
    if (Deno.statSync(userConfig).isFile) env.npm_config_userconfig = userConfig;
  } catch {
    // No user config.
  }
  return { ...env, npm_config_update_notifier: "false", ...overrides };
}

Deno.test("npm package: pack, install globally without deno, run panes and the ledger, npx", async (t) => {
  const skiffEnv = await SkiffEnv.create();
  const root = skiffEnv.root;
  const timings: string[] = [];
  const timed = async <T>(what: string, body: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await body();
    timings.push(`${what} ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return value;
  };
  try {
    const path = await pathWithoutDeno(join(root, "node-bin"));
    const env = cleanEnv({
      HOME: skiffEnv.env.HOME,
      PATH: path,
      SHELL: "/bin/bash",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      SKIFF_CONFIG_DIR: skiffEnv.env.SKIFF_CONFIG_DIR,
      SKIFF_STATE_DIR: skiffEnv.env.SKIFF_STATE_DIR,
      SKIFF_SOCKET: skiffEnv.socket,
    });
    const prefix = join(root, "prefix");
    const skiff = join(prefix, "bin", "skiff");
    const packageDir = join(prefix, "lib", "node_modules", "@skiff", "skiff");
    // A folder with its own Deno config, as a user's project may have: it
    // must neither steer Skiff nor be written to.
    const project = join(root, "project");
    await Deno.mkdir(project);
    await Deno.writeTextFile(
      join(project, "deno.json"),
      JSON.stringify({ nodeModulesDir: "auto", imports: { "smol-toml": "npm:smol-toml@0.0.1" } }),
    );
    const inProject = { env, cwd: project };
    let tarball = "";

    await t.step("this PATH has node and npm but no deno", async () => {
      const found = await run("sh", ["-c", "command -v deno; command -v npm"], inProject);
      assertEquals(found.stdout, `${join(root, "node-bin", "npm")}\n`);
    });

    await t.step("npm pack ships the launcher and the bundle, nothing else", async () => {
      // npm pack builds the bundle first (prepack), with the Deno running this test.
      const packEnv = { ...env, PATH: `${dirname(Deno.execPath())}:${path}` };
      const out = must(
        await timed(
          "npm pack",
          () =>
            run("npm", ["pack", "--json", "--pack-destination", root], { env: packEnv, cwd: ROOT }),
        ),
        "npm pack",
      );
      const [packed] = JSON.parse(out.slice(out.indexOf("[")));
      tarball = join(root, packed.filename);
      const files: string[] = packed.files.map((f: { path: string }) => f.path).sort();
      const extra = files.filter((f) =>
        !["README.md", "package.json", "bin/skiff"].includes(f) &&
        !/^dist\/npm\/[\w-]+\.js$/.test(f)
      );
      assertEquals(extra, []);
      assert(files.includes("bin/skiff") && files.includes("dist/npm/skiff.js"), files.join(" "));
    });

    await t.step("npm install -g into an empty prefix", async () => {
      must(
        await timed(
          "npm install -g",
          () =>
            run(
              "npm",
              ["install", "-g", "--no-audit", "--no-fund", "--prefix", prefix, tarball],
              inProject,
            ),
        ),
        "npm install",
      );
      assertEquals(
        await Deno.realPath(skiff),
        await Deno.realPath(join(packageDir, "bin", "skiff")),
      );
    });

    await t.step("skiff --version runs on the Deno npm installed", async () => {
      assertEquals(
        must(await run(skiff, ["--version"], inProject), "skiff --version"),
        `skiff ${VERSION}\n`,
      );
      const report = JSON.parse(
        must(await run(skiff, ["--version", "--json"], inProject), "--json"),
      );
      const pkg = JSON.parse(await Deno.readTextFile(join(ROOT, "package.json")));
      assertEquals(report.runtime.deno, pkg.peerDependencies.deno);
      assertEquals(report.compiled, false);
    });

    await t.step("pane round trip: new, keys, capture, kill, daemon stop", async () => {
      const pane = must(
        await timed("skiff new", () => run(skiff, ["new", "--", ...BASH], inProject)),
        "new",
      )
        .trim();
      assertMatch(pane, /^p\d+$/);
      // `skiff` in a pane is skiffd's shim, which runs the npm program too.
      must(
        await run(skiff, ["keys", pane, "skiff --version; echo npm-$((6*7))", "Enter"], inProject),
        "keys",
      );
      await waitFor("the echo in the pane", async () => {
        const screen = must(await run(skiff, ["capture", pane], inProject), "capture");
        return screen.includes(`\nskiff ${VERSION}\nnpm-42\n`);
      });
      // skiffd is a copy of the npm program, started with the launcher's flags.
      const pid = await skiffEnv.daemonPid();
      assert(pid !== undefined, "no daemon pid");
      const cmdline = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0");
      const bundle = pathToFileURL(join(packageDir, "dist", "npm", "skiff.js")).href;
      assert(cmdline.includes(bundle), cmdline.join(" "));
      assert(cmdline.includes("--node-modules-dir=manual"), cmdline.join(" "));
      must(await run(skiff, ["kill", pane], inProject), "kill");
      const listed = JSON.parse(must(await run(skiff, ["ls", "--json"], inProject), "ls"));
      assertEquals(listed.panes, []);
      must(await run(skiff, ["daemon", "stop"], inProject), "daemon stop");
      await waitFor("skiffd to exit", () => !pidAlive(pid));
    });

    await t.step(
      "skiff mcp answers an MCP client, and its install entry runs this package",
      async () => {
        const messages = [
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "npm-test", version: "1" },
            },
          },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "tools/list" },
        ];
        const child = new Deno.Command(skiff, {
          args: ["mcp"],
          env,
          clearEnv: true,
          cwd: project,
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(
          new TextEncoder().encode(messages.map((m) => JSON.stringify(m)).join("\n") + "\n"),
        );
        // The server answers, then ends once its client closes stdin.
        const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        while (!text.includes('"id":2')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        await writer.close();
        reader.releaseLock();
        const status = await child.status;
        await child.stderr.cancel();
        assertEquals(status.code, 0);
        const listed = text.trim().split("\n").map((line) => JSON.parse(line)).find((m) =>
          m.id === 2
        );
        assertEquals(listed.result.tools.map((t: { name: string }) => t.name).slice(0, 2), [
          "list_panes",
          "capture_pane",
        ]);
        const entry = JSON.parse(
          must(
            await run(skiff, ["mcp", "install", "--print", "claude", "--json"], inProject),
            "print",
          ),
        ).entry;
        assert(
          [entry.command, ...entry.args].some((word: string) => word.startsWith(packageDir)),
          `the entry runs the installed package: ${entry.command} ${entry.args.join(" ")}`,
        );
      },
    );

    await t.step("ledger round trip: add, ls --json, done", async () => {
      const added = must(
        await run(skiff, ["ledger", "add", "--task", "Ship the npm package"], inProject),
        "add",
      );
      const uid = added.split(" ")[0];
      assertMatch(uid, /^[0-9a-f]{8}$/);
      const listed = JSON.parse(
        must(await run(skiff, ["ledger", "ls", "--json"], inProject), "ls"),
      );
      assertEquals(listed.rows.map((r: { uid: string; task: string }) => [r.uid, r.task]), [
        [uid, "Ship the npm package"],
      ]);
      const done = JSON.parse(
        must(await run(skiff, ["ledger", "done", uid, "--json"], inProject), "done"),
      );
      assertEquals(done.row.state, "done");
      const open = JSON.parse(must(await run(skiff, ["ledger", "ls", "--json"], inProject), "ls"));
      assertEquals(open.rows, []);
    });

    await t.step("nothing was written into the user's folder or the package", () => {
      assertEquals([...Deno.readDirSync(project)].map((e) => e.name), ["deno.json"]);
      const inPackage = [...Deno.readDirSync(packageDir)].map((e) => e.name).sort();
      assertEquals(inPackage, ["README.md", "bin", "dist", "node_modules", "package.json"]);
      const modules = [...Deno.readDirSync(join(packageDir, "node_modules"))].map((e) => e.name);
      assert(!modules.includes(".deno"), `Deno wrote into npm's node_modules: ${modules}`);
    });

    await t.step("the release smoke script passes against it", async () => {
      const smoke = await timed(
        "smoke.sh",
        () => run("sh", [join(ROOT, "scripts", "smoke.sh"), skiff], inProject),
      );
      assertEquals(smoke.code, 0, smoke.stderr);
      assertEquals(smoke.stdout, `smoke: ok (skiff ${VERSION}, compiled: no)\n`);
    });

    await t.step("npx runs it too (from npm's cache: no second download)", async () => {
      const npx = must(
        await timed(
          "npx",
          () =>
            run(
              "npx",
              ["--offline", "--yes", "--package", tarball, "--", "skiff", "--version"],
              inProject,
            ),
        ),
        "npx",
      );
      assertEquals(npx, `skiff ${VERSION}\n`);
    });
    await t.step(
      "without deno's install script, the launcher finds the platform package's Deno; with no Deno, one line",
      async () => {
        // npm may skip install scripts (ignore-scripts, allow-scripts): then the
        // runtime is only in @deno/<platform>.
        await Deno.remove(join(packageDir, "node_modules", "deno", "deno"));
        assertEquals(
          must(await run(skiff, ["--version"], inProject), "skiff --version"),
          `skiff ${VERSION}\n`,
        );
        await Deno.remove(join(packageDir, "node_modules", "@deno"), { recursive: true });
        const missing = await run(skiff, ["--version"], inProject);
        assertEquals(missing.code, 1);
        assertEquals(missing.stdout, "");
        assertMatch(
          missing.stderr,
          /^skiff: the deno package \(a peer dependency\) is missing; [^\n]+\n$/,
        );
      },
    );
  } finally {
    console.log(`npm package timings: ${timings.join(", ")}`);
    await skiffEnv.dispose();
  }
});
