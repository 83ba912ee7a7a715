/**
 * Issue 28, case 6: the first start of a fresh clone sets up the npm
 * packages, which takes seconds. The checkout's launcher does it ahead of
 * the program, and past a second one line on a terminal's stderr says what
 * is happening; piped, it says nothing. A fresh copy of the checkout and an
 * empty DENO_DIR make the start cold; the packages come from the npm
 * registry (the one place these tests may reach).
 */

import { dirname, join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { decodeOutput, ROOT, SkiffEnv } from "../helpers/skiff.ts";
import { TestTerminal } from "../helpers/terminal.ts";

const LINE = "skiff: preparing its packages (once)…";

/** A copy of the checkout's tracked files, with no node_modules and no .tools. */
async function freshCopy(dir: string): Promise<string> {
  const listed = await new Deno.Command("git", {
    args: [
      "ls-files",
      "-z",
      "--",
      "skiff",
      "scripts",
      "main.ts",
      "deno.json",
      "deno.lock",
      "package.json",
      "cmd",
      "lib",
    ],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  assert(listed.success, "git ls-files lists the checkout");
  const copy = join(dir, "checkout");
  for (const path of new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean)) {
    await Deno.mkdir(join(copy, dirname(path)), { recursive: true });
    await Deno.copyFile(join(ROOT, path), join(copy, path));
  }
  return copy;
}

/** An isolated Skiff whose Deno has an empty DENO_DIR, and reaches the registry as this one does. */
async function coldSkiff(): Promise<SkiffEnv> {
  const denoDir = await Deno.makeTempDir({ prefix: "skiff-deno-dir-" });
  const pass: Record<string, string> = {};
  for (
    const key of [
      "DENO_CERT",
      "SSL_CERT_FILE",
      "SSL_CERT_DIR",
      "HTTPS_PROXY",
      "HTTP_PROXY",
      "NO_PROXY",
      "NPM_CONFIG_REGISTRY",
    ]
  ) {
    const value = Deno.env.get(key);
    if (value !== undefined) pass[key] = value;
  }
  // The machine's own CAs as well as Deno's: a registry behind a local CA is reached too.
  pass.DENO_TLS_CA_STORE = Deno.env.get("DENO_TLS_CA_STORE") ?? "mozilla,system";
  return await SkiffEnv.create({ ...pass, DENO_DIR: denoDir });
}

async function dispose(skiff: SkiffEnv): Promise<void> {
  const denoDir = skiff.env.DENO_DIR;
  await skiff.dispose();
  await Deno.remove(denoDir, { recursive: true }).catch(() => {});
}

Deno.test("issue 28, case 6: a cold first start says on a terminal, once, that it prepares its packages", async () => {
  const skiff = await coldSkiff();
  try {
    const copy = await freshCopy(skiff.root);
    const first = await TestTerminal.start([join(copy, "skiff"), "ls"], {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      assertEquals(await first.exited, 0, first.raw);
    } finally {
      first.kill();
    }
    const shown = first.raw.replaceAll("\r", "").split("\n").filter(Boolean);
    assertEquals(shown, [LINE, "No panes. Start one with 'skiff new'."], first.raw);

    // Once: the next start is warm, and says nothing of it.
    const second = await TestTerminal.start([join(copy, "skiff"), "ls"], {
      env: skiff.env,
      cwd: skiff.env.HOME,
    });
    try {
      assertEquals(await second.exited, 0, second.raw);
    } finally {
      second.kill();
    }
    assertEquals(second.raw.replaceAll("\r", "").trim(), "No panes. Start one with 'skiff new'.");
  } finally {
    await dispose(skiff);
  }
});

Deno.test("issue 28, case 6: a cold first start that is not on a terminal prints no such line", async () => {
  const skiff = await coldSkiff();
  try {
    const copy = await freshCopy(skiff.root);
    const result = decodeOutput(
      await new Deno.Command(join(copy, "skiff"), {
        args: ["ls"],
        env: skiff.env,
        clearEnv: true,
        cwd: skiff.env.HOME,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output(),
    );
    assertEquals([result.code, result.stderr], [0, ""], result.stderr);
    assertEquals(result.stdout, "No panes. Start one with 'skiff new'.\n");
    // The packages were prepared all the same, without a word.
    const stamp = await Deno.readTextFile(join(copy, "node_modules", ".skiff-prepared"));
    assert(stamp.includes(skiff.env.DENO_DIR), stamp);
  } finally {
    await dispose(skiff);
  }
});
