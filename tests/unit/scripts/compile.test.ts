/** The compile wrapper: the four release targets, and telling a runtime download failure apart. */

import { assertEquals } from "../../helpers/assert.ts";
import { compileArgs, downloadFailure, TARGETS } from "../../../scripts/compile.ts";

Deno.test("compile builds the four release targets, macOS ones self-extracting", () => {
  assertEquals(
    TARGETS.map((t) => [t.name, t.triple, compileArgs(t, "out").includes("--self-extracting")]),
    [
      ["linux-x64", "x86_64-unknown-linux-gnu", false],
      ["linux-arm64", "aarch64-unknown-linux-gnu", false],
      ["macos-x64", "x86_64-apple-darwin", true],
      ["macos-arm64", "aarch64-apple-darwin", true],
    ],
  );
});

Deno.test("compile tells a runtime download failure from other failures", () => {
  const target = TARGETS[0];
  const download = [
    "Compile main.ts to dist/skiff-linux-x64",
    "Download https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip",
    "error: Writing deno compile executable to temporary file 'dist/skiff-linux-x64.tmp-1'",
    "",
    "Caused by:",
    "    0: Setting up base binary.",
    "    1: error sending request for url (https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): client error (Connect): dns error: failed to lookup address information: Name or service not known",
    "    2: client error (Connect)",
    "    3: dns error",
    "    4: failed to lookup address information: Name or service not known",
    "",
    "Stack backtrace:",
    "   0: <unknown>",
  ].join("\n");
  assertEquals(
    downloadFailure(download, target),
    "compile: cannot download Deno's runtime for x86_64-unknown-linux-gnu " +
      "(https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip): " +
      "failed to lookup address information: Name or service not known. " +
      "Build where dl.deno.land is reachable; the release workflow does.",
  );
  const typeError =
    "Check main.ts\nTS2322 [ERROR]: Type 'string' is not assignable to type 'number'.";
  assertEquals(downloadFailure(typeError, target), undefined);
});
