/**
 * `deno task compile` where Deno's compile runtime cannot be downloaded: one
 * line that says so, a documented exit code, and no binary.
 *
 * The download is made to fail on every machine: a fresh Deno cache (so no
 * runtime is cached; npm packages and `deno bundle`'s esbuild are shared
 * from the real cache) and an HTTPS proxy on a closed loopback port.
 */

import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { decodeOutput, ROOT } from "../helpers/skiff.ts";
import { TARGETS } from "../../scripts/compile.ts";
import { staleModules } from "../../scripts/embed.ts";

const COMPILE = join(ROOT, "scripts", "compile.ts");

async function denoDir(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)).denoDir;
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function compile(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", COMPILE, ...args],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/",
      ...env,
    },
    clearEnv: true,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return decodeOutput(output);
}

Deno.test("compile says in one line that the runtime cannot be downloaded, and builds nothing", async () => {
  const target = TARGETS.find((t) => t.triple === Deno.build.target) ?? TARGETS[0];
  const temp = await Deno.makeTempDir({ prefix: "skiff-compile-" });
  try {
    const cache = join(temp, "deno");
    await Deno.mkdir(cache);
    // Bundling once here brings esbuild into the real cache, where the fresh one finds it.
    await staleModules();
    const real = await denoDir();
    await Deno.symlink(join(real, "npm"), join(cache, "npm"));
    // The staleness check bundles the app's page with the esbuild that `deno bundle` keeps in
    // dl/; only that is shared, so the compile runtime is still not cached.
    await Deno.mkdir(join(cache, "dl"));
    let kept: Deno.DirEntry[] = [];
    try {
      kept = [...Deno.readDirSync(join(real, "dl"))];
    } catch {
      // No esbuild kept yet: the bundle step fetches it as usual.
    }
    for (const entry of kept.filter((e) => e.name.startsWith("esbuild-"))) {
      await Deno.symlink(join(real, "dl", entry.name), join(cache, "dl", entry.name));
    }
    const out = join(temp, "out");
    const proxy = `http://127.0.0.1:${closedPort()}`;
    const result = await compile([target.name, "--out", out], {
      DENO_DIR: cache,
      HTTPS_PROXY: proxy,
      https_proxy: proxy,
    });
    assertEquals(result.code, 3, result.stderr);
    assertEquals(result.stdout, "");
    const url = `https://dl.deno.land/release/v${Deno.version.deno}/denort-${target.triple}.zip`;
    assertMatch(
      result.stderr,
      new RegExp(
        `^compile: cannot download Deno's runtime for ${target.triple} \\(${
          url.replaceAll(".", "\\.")
        }\\): [^\\n]+\\. Build where dl\\.deno\\.land is reachable; the release workflow does\\.\\n$`,
      ),
    );
    assertEquals([...Deno.readDirSync(out)], []);
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
});

Deno.test("compile refuses an unknown target in one line", async () => {
  const result = await compile(["windows-x64"], {});
  assertEquals(result.code, 2);
  assertEquals(
    result.stderr,
    "compile: unknown target 'windows-x64'; targets: linux-x64, linux-arm64, macos-x64, macos-arm64\n",
  );
});
