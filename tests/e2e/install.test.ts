/**
 * install.sh against a loopback HTTP server that serves a release folder made
 * here: it picks the file for the OS and CPU, checks its SHA-256, installs it,
 * and refuses a bad sum or an unknown platform in one line, installing nothing.
 *
 * Real binaries need `deno compile`, which cannot download its runtime on our
 * machines; the release's files here are small programs, and the host's one
 * runs this checkout's `skiff`.
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { decodeOutput, ROOT } from "../helpers/skiff.ts";
import { VERSION } from "../../lib/version.ts";

const INSTALL_SH = join(ROOT, "install.sh");
const NAMES = ["linux-x64", "linux-arm64", "macos-x64", "macos-arm64"];

interface Release {
  url: string;
  dir: string;
  /** Paths the server was asked for. */
  requests: string[];
  close(): Promise<void>;
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The name of this machine's binary, as install.sh picks it. */
function hostName(): string {
  const os = Deno.build.os === "darwin" ? "macos" : "linux";
  return `${os}-${Deno.build.arch === "aarch64" ? "arm64" : "x64"}`;
}

/**
 * Writes a program for every platform into `dir`: each prints its own name,
 * except the host's, which runs this checkout's `skiff`.
 */
async function writePrograms(dir: string): Promise<void> {
  for (const name of NAMES) {
    const program = name === hostName()
      ? `#!/bin/sh\nexec ${join(ROOT, "skiff")} "$@"\n`
      : `#!/bin/sh\necho "skiff fake-${name}"\n`;
    await Deno.writeTextFile(join(dir, `skiff-${name}`), program);
  }
}

/** Serves `dir` on 127.0.0.1, recording the paths asked for. */
function serve(dir: string): Release {
  const requests: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      requests.push(path);
      try {
        return new Response(await Deno.readFile(join(dir, path.slice(1))));
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    dir,
    requests,
    close: () => server.shutdown(),
  };
}

/** Makes a release folder, programs and their sum files, and serves it. */
async function serveRelease(root: string): Promise<Release> {
  const dir = join(root, "release");
  await Deno.mkdir(dir);
  await writePrograms(dir);
  for (const name of NAMES) {
    const bytes = await Deno.readFile(join(dir, `skiff-${name}`));
    await Deno.writeTextFile(
      join(dir, `skiff-${name}.sha256`),
      `${await sha256Hex(bytes)}  skiff-${name}\n`,
    );
  }
  return serve(dir);
}

/** A `uname` that reports another machine, first on PATH. */
async function fakeUname(root: string, os: string, cpu: string): Promise<string> {
  const bin = join(root, `uname-${os}-${cpu}`);
  await Deno.mkdir(bin);
  const script =
    `#!/bin/sh\ncase "$1" in -s) echo ${os} ;; -m) echo ${cpu} ;; *) echo ${os} ;; esac\n`;
  await Deno.writeTextFile(join(bin, "uname"), script, { mode: 0o755 });
  return bin;
}

interface InstallRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface InstallOptions {
  /** Folders before the usual PATH. */
  pathPrefix?: string;
  /** Feed the script on stdin, as `curl … | sh` does. */
  viaStdin?: boolean;
  /** The install.sh to run (default: the checkout's). */
  script?: string;
  /** Leave SKIFF_RELEASE_URL unset. */
  noReleaseUrl?: boolean;
}

async function runInstall(
  root: string,
  release: Release,
  options: InstallOptions = {},
): Promise<InstallRun> {
  const script = options.script ?? INSTALL_SH;
  const basePath = `${join(Deno.execPath(), "..")}:/usr/local/bin:/usr/bin:/bin`;
  const env: Record<string, string> = {
    HOME: join(root, "home"),
    PATH: options.pathPrefix ? `${options.pathPrefix}:${basePath}` : basePath,
    SKIFF_INSTALL_DIR: join(root, "prefix", "bin"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    DENO_NO_UPDATE_CHECK: "1",
  };
  if (!options.noReleaseUrl) env.SKIFF_RELEASE_URL = release.url;
  const child = new Deno.Command("sh", {
    args: options.viaStdin ? ["-s"] : [script],
    env,
    clearEnv: true,
    cwd: root,
    stdin: options.viaStdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.viaStdin) {
    const writer = child.stdin.getWriter();
    await writer.write(await Deno.readFile(script));
    await writer.close();
  }
  const output = await child.output();
  return decodeOutput(output);
}

async function withRelease(body: (root: string, release: Release) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "skiff-install-" });
  await Deno.mkdir(join(root, "home"));
  const release = await serveRelease(root);
  try {
    await body(root, release);
  } finally {
    await release.close();
    await Deno.remove(root, { recursive: true });
  }
}

function installed(root: string): string {
  return join(root, "prefix", "bin", "skiff");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("install.sh installs this machine's binary when its sum matches, and it runs", async () => {
  await withRelease(async (root, release) => {
    // As `curl … | sh` runs it: the script on stdin.
    const result = await runInstall(root, release, { viaStdin: true });
    assertEquals(result.code, 0, result.stderr);
    assertEquals(result.stderr, "");
    assertMatch(result.stdout, new RegExp(`^Installed skiff ${VERSION} to ${installed(root)}\\n`));
    assertMatch(result.stdout, /Add .* to your PATH/);
    assertEquals(release.requests, [`/skiff-${hostName()}`, `/skiff-${hostName()}.sha256`]);
    const info = await Deno.stat(installed(root));
    assertEquals(info.mode! & 0o777, 0o755);
    const run = await new Deno.Command(installed(root), {
      args: ["--version"],
      env: { PATH: `${join(Deno.execPath(), "..")}:/usr/bin:/bin` },
      stdout: "piped",
    }).output();
    assertEquals(new TextDecoder().decode(run.stdout), `skiff ${VERSION}\n`);
  });
});

Deno.test("install.sh picks the file for each OS and CPU", async () => {
  await withRelease(async (root, release) => {
    const machines: [string, string, string][] = [
      ["Linux", "x86_64", "linux-x64"],
      ["Linux", "aarch64", "linux-arm64"],
      ["Darwin", "x86_64", "macos-x64"],
      ["Darwin", "arm64", "macos-arm64"],
    ];
    for (const [os, cpu, name] of machines) {
      if (name === hostName()) continue; // the test above installs that one
      const result = await runInstall(root, release, {
        pathPrefix: await fakeUname(root, os, cpu),
      });
      assertEquals(result.code, 0, `${os} ${cpu}: ${result.stderr}`);
      assertEquals(
        result.stdout.split("\n")[0],
        `Installed skiff fake-${name} to ${installed(root)}`,
      );
    }
  });
});

Deno.test("install.sh refuses a bad sum in one line and installs nothing", async () => {
  await withRelease(async (root, release) => {
    const name = `skiff-${hostName()}`;
    await Deno.writeTextFile(join(release.dir, `${name}.sha256`), `${"0".repeat(64)}  ${name}\n`);
    await Deno.mkdir(join(root, "prefix", "bin"), { recursive: true });
    await Deno.writeTextFile(installed(root), "old skiff\n");
    const result = await runInstall(root, release);
    assertEquals(result.code, 4);
    assertEquals(result.stdout, "");
    assertMatch(
      result.stderr,
      new RegExp(
        `^install\\.sh: SHA-256 mismatch for ${name}: expected 0{64}, got [0-9a-f]{64}; nothing was installed\\n$`,
      ),
    );
    assertEquals(await Deno.readTextFile(installed(root)), "old skiff\n");
    assertEquals([...Deno.readDirSync(join(root, "prefix", "bin"))].map((e) => e.name), ["skiff"]);
  });
});

Deno.test("install.sh refuses an unknown platform in one line and downloads nothing", async () => {
  await withRelease(async (root, release) => {
    for (const [os, cpu] of [["FreeBSD", "amd64"], ["Linux", "riscv64"]]) {
      const result = await runInstall(root, release, {
        pathPrefix: await fakeUname(root, os, cpu),
      });
      assertEquals(result.code, 2);
      assertEquals(
        result.stderr,
        `install.sh: no Skiff binary for ${os} ${cpu}; there are binaries for Linux and macOS on x64 and arm64\n`,
      );
    }
    assertEquals(release.requests, []);
    assert(!(await exists(join(root, "prefix"))), "the prefix was made");
  });
});

Deno.test("install.sh says which download failed when the release lacks the file", async () => {
  await withRelease(async (root, release) => {
    await Deno.remove(join(release.dir, `skiff-${hostName()}.sha256`));
    const result = await runInstall(root, release);
    assertEquals(result.code, 3);
    assertEquals(
      result.stderr,
      `install.sh: could not download ${release.url}skiff-${hostName()}.sha256\n`,
    );
    assert(!(await exists(installed(root))), "skiff was installed without its sum");
  });
});

Deno.test("install.sh without a release URL says how to give one", async () => {
  await withRelease(async (root, release) => {
    const result = await runInstall(root, release, { noReleaseUrl: true });
    assertEquals(result.code, 3);
    assertMatch(
      result.stderr,
      /^install\.sh: set SKIFF_RELEASE_URL to the release's download URL .*\n$/,
    );
    assertEquals(release.requests, []);
  });
});

Deno.test("a folder finished by scripts/release_files.sh installs with its own install.sh", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-install-" });
  await Deno.mkdir(join(root, "home"));
  const dir = join(root, "dist");
  await Deno.mkdir(dir);
  await writePrograms(dir);
  await Deno.writeTextFile(join(dir, "skiff-skiff-0.0.0.tgz"), "a tarball\n");
  const release = serve(dir);
  try {
    const finish = await new Deno.Command("sh", {
      args: [join(ROOT, "scripts", "release_files.sh"), dir, release.url],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(finish.code, 0, new TextDecoder().decode(finish.stderr));
    const files = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    const summed = [...NAMES.map((n) => `skiff-${n}`), "skiff-skiff-0.0.0.tgz"].sort();
    assertEquals(
      files,
      ["SHA256SUMS", "install.sh", ...summed, ...summed.map((f) => `${f}.sha256`)].sort(),
    );
    const sums = await Deno.readTextFile(join(dir, "SHA256SUMS"));
    for (const file of summed) {
      const hex = await sha256Hex(await Deno.readFile(join(dir, file)));
      assertMatch(sums, new RegExp(`^${hex}  ${file.replaceAll(".", "\\.")}$`, "m"));
      assertEquals(await Deno.readTextFile(join(dir, `${file}.sha256`)), `${hex}  ${file}\n`);
    }
    // The release's install.sh knows where it came from.
    const result = await runInstall(root, release, {
      script: join(dir, "install.sh"),
      noReleaseUrl: true,
    });
    assertEquals(result.code, 0, result.stderr);
    assertMatch(result.stdout, new RegExp(`^Installed skiff ${VERSION} to ${installed(root)}\\n`));
  } finally {
    await release.close();
    await Deno.remove(root, { recursive: true });
  }
});
