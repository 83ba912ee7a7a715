import { assertEquals } from "../../helpers/assert.ts";
import { join } from "node:path";
import { shimScript } from "../../../lib/daemon/runtime/shim.ts";

/**
 * A checkout with a stand-in for Deno that prints its arguments, and the
 * pane's script for it: what the script runs is what the stand-in prints.
 */
async function fakeCheckout(): Promise<{ root: string; deno: string; run: () => Promise<string> }> {
  const root = await Deno.makeTempDir({ prefix: "skiff-shim-" });
  for (const file of ["main.ts", "deno.json", "deno.lock"]) {
    await Deno.writeTextFile(join(root, file), "\n");
  }
  await Deno.mkdir(join(root, "node_modules"));
  const deno = join(root, "fake deno");
  await Deno.writeTextFile(deno, '#!/bin/sh\nprintf "%s|" "$@"\n');
  await Deno.chmod(deno, 0o755);
  const script = join(root, "skiff");
  const line = { program: deno, args: ["run", "-A", "--quiet", `file://${root}/main.ts`] };
  await Deno.writeTextFile(script, shimScript(line, "/cache dir"));
  await Deno.chmod(script, 0o755);
  const run = async () => {
    const out = await new Deno.Command(script, { args: ["ls", "--json"], stdout: "piped" })
      .output();
    return new TextDecoder().decode(out.stdout);
  };
  return { root, deno, run };
}

Deno.test("a pane's skiff skips Deno's node_modules check only where the launcher prepared it", async () => {
  const { root, deno, run } = await fakeCheckout();
  const plain = `run|-A|--quiet|${root}/main.ts|ls|--json|`;
  const manual = `run|-A|--quiet|--node-modules-dir=manual|${root}/main.ts|ls|--json|`;
  try {
    // No stamp: nothing says node_modules is ready.
    assertEquals(await run(), plain);
    const stamp = join(root, "node_modules", ".skiff-prepared");
    await Deno.writeTextFile(stamp, `deno=${deno} DENO_DIR=/cache dir\n`);
    assertEquals(await run(), manual);
    // Prepared for another Deno, or another DENO_DIR.
    await Deno.writeTextFile(stamp, `deno=/usr/bin/deno DENO_DIR=/cache dir\n`);
    assertEquals(await run(), plain);
    await Deno.writeTextFile(stamp, `deno=${deno} DENO_DIR=\n`);
    assertEquals(await run(), plain);
    // The lock changed after the packages were prepared: Deno checks them itself.
    await Deno.writeTextFile(stamp, `deno=${deno} DENO_DIR=/cache dir\n`);
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(join(root, "deno.lock"), later, later);
    assertEquals(await run(), plain);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
