/** `skiff --version`: one line for people, the build and its runtime in JSON. */

import { assertEquals } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";
import { VERSION } from "../../lib/version.ts";

Deno.test("skiff --version prints one line", async () => {
  await withSkiff(async (skiff) => {
    assertEquals(await skiff.ok(["--version"]), `skiff ${VERSION}\n`);
    assertEquals(await skiff.ok(["-V"]), `skiff ${VERSION}\n`);
  });
});

Deno.test("skiff --version --json names the version, the runtime, and that it is not compiled", async () => {
  await withSkiff(async (skiff) => {
    const report = await skiff.json(["--version"]);
    // The program under test runs on the same Deno as this test.
    assertEquals(report, {
      schema_version: 1,
      version: VERSION,
      runtime: {
        deno: Deno.version.deno,
        v8: Deno.version.v8,
        typescript: Deno.version.typescript,
      },
      compiled: false,
      target: Deno.build.target,
    });
  });
});
