/**
 * The npm package, the checkout and the binaries describe the same program:
 * one version, the same npm dependencies, one pinned Deno.
 */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";
import { VERSION } from "../../../lib/version.ts";
import { dependencyDrift } from "../../../scripts/build_npm.ts";

const readJson = (file: string) => JSON.parse(Deno.readTextFileSync(join(ROOT, file)));

Deno.test("deno.json, package.json and lib/version.ts carry one version", () => {
  assertEquals(readJson("deno.json").version, VERSION);
  assertEquals(readJson("package.json").version, VERSION);
});

Deno.test("package.json depends on the npm packages deno.json maps, at the same versions", () => {
  assertEquals(dependencyDrift(), []);
});

Deno.test("the npm package runs on the Deno the checkout pins", () => {
  const pinned = Deno.readTextFileSync(join(ROOT, "scripts", "deno.sh")).match(/pinned="(.+)"/)
    ?.[1];
  assertEquals(readJson("package.json").peerDependencies, { deno: pinned });
});
