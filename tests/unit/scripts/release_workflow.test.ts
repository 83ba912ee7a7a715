/**
 * The release workflow can only run on GitHub; these checks keep it in step
 * with the scripts it calls, which the other tests run here.
 */

import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/skiff.ts";
import { TARGETS } from "../../../scripts/compile.ts";

const WORKFLOW = Deno.readTextFileSync(join(ROOT, ".github", "workflows", "release.yml"));

Deno.test("the release workflow builds every compile target, and only those", () => {
  const matrix = [...WORKFLOW.matchAll(/^ {10}- name: (\S+)$/gm)].map((m) => m[1]);
  assertEquals(matrix, TARGETS.map((t) => t.name));
});

Deno.test("the release workflow runs on a version tag and calls the tested scripts", () => {
  for (
    const line of [
      'tags: ["v*"]',
      "deno task compile ${{ matrix.name }}",
      'sh scripts/smoke.sh "$RUNNER_TEMP/bin/skiff" --compiled',
      "npm pack --pack-destination dist",
      'sh scripts/smoke.sh "$RUNNER_TEMP/npm/bin/skiff"',
      "sh scripts/release_files.sh dist",
      "run: .ci/run",
    ]
  ) {
    assert(WORKFLOW.includes(line), `release.yml lacks: ${line}`);
  }
});
