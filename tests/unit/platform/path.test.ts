import { posix } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import * as path from "../../../lib/platform/path.ts";

/** Paths made of the pieces that trip path code: roots, repeats, dots, trailing separators. */
function samples(): string[] {
  const pieces = ["", "/", "//", "a", "bc", ".", "..", "...", ".a", "a.b", "x y", "é"];
  const out = new Set<string>([
    "",
    "/",
    "//",
    "///",
    ".",
    "..",
    "/..",
    "../..",
    "a//b/",
    "/a/./b/../c//",
  ]);
  // A fixed generator, so a failure repeats.
  let seed = 12345;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 3000; i++) {
    let p = "";
    const parts = 1 + next(6);
    for (let j = 0; j < parts; j++) p += pieces[next(pieces.length)] + (next(3) === 0 ? "" : "/");
    out.add(p);
  }
  return [...out];
}

const SAMPLES = samples();

Deno.test("path: normalize, dirname, basename and isAbsolute agree with node:path", () => {
  for (const p of SAMPLES) {
    assertEquals(path.normalize(p), posix.normalize(p), `normalize(${JSON.stringify(p)})`);
    assertEquals(path.dirname(p), posix.dirname(p), `dirname(${JSON.stringify(p)})`);
    assertEquals(path.basename(p), posix.basename(p), `basename(${JSON.stringify(p)})`);
    assertEquals(path.isAbsolute(p), posix.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
  }
});

Deno.test("path: join, resolve and relative agree with node:path", () => {
  for (let i = 0; i + 2 < SAMPLES.length; i++) {
    const [a, b, c] = [SAMPLES[i], SAMPLES[i + 1], SAMPLES[i + 2]];
    const args = JSON.stringify([a, b, c]);
    assertEquals(path.join(a, b, c), posix.join(a, b, c), `join(${args})`);
    assertEquals(path.join(a), posix.join(a), `join(${JSON.stringify(a)})`);
    assertEquals(path.resolve(a, b, c), posix.resolve(a, b, c), `resolve(${args})`);
    assertEquals(path.resolve(a), posix.resolve(a), `resolve(${JSON.stringify(a)})`);
    assertEquals(path.relative(a, b), posix.relative(a, b), `relative(${args})`);
  }
  assertEquals(path.join(), posix.join());
  assertEquals(path.resolve(), posix.resolve());
  assertEquals([path.sep, path.delimiter], [posix.sep, posix.delimiter]);
});
