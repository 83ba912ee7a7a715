/** The embed generator: exact text in template literals, and stale modules caught. */

import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import {
  type Asset,
  renderAsset,
  staleModules,
  templateLiteral,
  writeModules,
} from "../../../scripts/embed.ts";

Deno.test("templateLiteral keeps backslashes, backticks, ${, CR LF and control characters", async () => {
  const text = "a\\b `c` ${d} $e {f}\r\nline\ttab\x00\x1b[0m é 日本 \u2028 end\\";
  const module = `export default ${templateLiteral(text)};`;
  const url = `data:text/javascript;base64,${
    btoa(String.fromCharCode(...new TextEncoder().encode(module)))
  }`;
  assertEquals((await import(url)).default, text);
});

Deno.test("a changed source makes its module stale until embed runs", async () => {
  const root = await Deno.makeTempDir({ prefix: "skiff-embed-" });
  try {
    const asset: Asset = { source: "notes.md", name: "NOTES", module: "notes.ts", about: "Notes" };
    const options = { root, assets: [asset] };
    await Deno.writeTextFile(join(root, "notes.md"), "one\n");
    assertEquals(await staleModules(options), ["lib/assets/notes.ts", "lib/assets/mod.ts"]);
    assertEquals(await writeModules(options), ["lib/assets/notes.ts", "lib/assets/mod.ts"]);
    assertEquals(await staleModules(options), []);
    await Deno.writeTextFile(join(root, "notes.md"), "two\n");
    assertEquals(await staleModules(options), ["lib/assets/notes.ts"]);
    await writeModules(options);
    assertEquals(
      await Deno.readTextFile(join(root, "lib/assets/notes.ts")),
      renderAsset(asset, "two\n"),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
