import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  flag,
  maybeInt,
  maybeString,
  maybeStringRecord,
  maybeStrings,
  needInt,
  needString,
} from "../../../lib/daemon/server/params.ts";
import { SkiffError } from "../../../lib/errors.ts";

function bad(fn: () => unknown, message: string): void {
  const error = assertThrows(fn);
  assert(error instanceof SkiffError, `expected a SkiffError, got ${error}`);
  assertEquals(error.exit, "USAGE");
  assertEquals(error.message, message);
}

const ABSENT = [undefined, null];

Deno.test("needString: a non-empty string only", () => {
  assertEquals(needString({ k: "x" }, "k"), "x");
  assertEquals(needString({ k: " " }, "k"), " ");
  for (const v of [...ABSENT, "", 1, true, ["x"], { a: "x" }]) {
    bad(() => needString({ k: v }, "k"), "Bad request: 'k' must be a non-empty string");
  }
  bad(() => needString({}, "name"), "Bad request: 'name' must be a non-empty string");
});

Deno.test("maybeString: absent or a string", () => {
  assertEquals(maybeString({}, "k"), undefined);
  assertEquals(maybeString({ k: null }, "k"), undefined);
  assertEquals(maybeString({ k: "" }, "k"), "");
  assertEquals(maybeString({ k: "v" }, "k"), "v");
  for (const v of [0, false, [], {}]) {
    bad(() => maybeString({ k: v }, "k"), "Bad request: 'k' must be a string");
  }
});

Deno.test("flag: absent is false, else a boolean", () => {
  assertEquals(flag({}, "f"), false);
  assertEquals(flag({ f: null }, "f"), false);
  assertEquals(flag({ f: true }, "f"), true);
  assertEquals(flag({ f: false }, "f"), false);
  for (const v of [0, 1, "true", "", []]) {
    bad(() => flag({ f: v }, "f"), "Bad request: 'f' must be true or false");
  }
});

Deno.test("maybeInt: absent or a whole number within bounds, inclusive", () => {
  assertEquals(maybeInt({}, "n", 1, 10), undefined);
  assertEquals(maybeInt({ n: null }, "n", 1, 10), undefined);
  assertEquals(maybeInt({ n: 1 }, "n", 1, 10), 1);
  assertEquals(maybeInt({ n: 10 }, "n", 1, 10), 10);
  assertEquals(maybeInt({ n: -3 }, "n", -5, 0), -3);
  for (const v of [0, 11, 1.5, "5", NaN, Infinity, true]) {
    bad(
      () => maybeInt({ n: v }, "n", 1, 10),
      "Bad request: 'n' must be a whole number from 1 to 10",
    );
  }
});

Deno.test("needInt: like maybeInt, but required", () => {
  assertEquals(needInt({ n: 7 }, "n", 0, 7), 7);
  for (const v of [...ABSENT, -1, 8, 2.5, "3"]) {
    bad(() => needInt({ n: v }, "n", 0, 7), "Bad request: 'n' must be a whole number from 0 to 7");
  }
});

Deno.test("maybeStrings: absent or a list of strings", () => {
  assertEquals(maybeStrings({}, "l"), undefined);
  assertEquals(maybeStrings({ l: null }, "l"), undefined);
  assertEquals(maybeStrings({ l: [] }, "l"), []);
  assertEquals(maybeStrings({ l: ["a", ""] }, "l"), ["a", ""]);
  for (const v of ["a", ["a", 1], [null], { 0: "a" }, 3]) {
    bad(() => maybeStrings({ l: v }, "l"), "Bad request: 'l' must be a list of strings");
  }
});

Deno.test("maybeStringRecord: absent or an object of strings", () => {
  assertEquals(maybeStringRecord({}, "e"), undefined);
  assertEquals(maybeStringRecord({ e: null }, "e"), undefined);
  assertEquals(maybeStringRecord({ e: {} }, "e"), {});
  assertEquals(maybeStringRecord({ e: { A: "1", B: "" } }, "e"), { A: "1", B: "" });
  for (const v of [[], ["a"], "A=1", 1, { A: 1 }, { A: "1", B: null }, true]) {
    bad(() => maybeStringRecord({ e: v }, "e"), "Bad request: 'e' must be an object of strings");
  }
});
