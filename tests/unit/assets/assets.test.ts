/**
 * Built-in assets: every generated module in lib/assets/ is up to date and
 * holds exactly the text of its source (or, for the app's script, its bundle).
 */

import { assertEquals } from "../../helpers/assert.ts";
import * as assets from "../../../lib/assets/mod.ts";
import { ASSETS, assetText, staleModules } from "../../../scripts/embed.ts";

Deno.test("lib/assets is up to date with its sources (else run 'deno task embed')", async () => {
  assertEquals(await staleModules(), []);
});

Deno.test("each built-in asset holds its source file's text", async () => {
  const exported = assets as Record<string, string>;
  assertEquals(Object.keys(exported).sort(), ASSETS.map((a) => a.name).sort());
  for (const asset of ASSETS) {
    assertEquals(exported[asset.name], await assetText(asset));
  }
});
