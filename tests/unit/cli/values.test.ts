import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { fitPaneSize, parseEnvPairs, parseSize, secondsToMs } from "../../../lib/cli/values.ts";
import { SkiffError } from "../../../lib/errors.ts";

function usage(fn: () => unknown, pattern: RegExp): void {
  const error = assertThrows(fn, pattern);
  assert(error instanceof SkiffError, `expected a SkiffError, got ${error}`);
  assertEquals(error.exit, "USAGE");
}

Deno.test("parseSize: reads COLSxROWS", () => {
  assertEquals(parseSize("120x40"), { cols: 120, rows: 40 });
  assertEquals(parseSize(" 80x24 "), { cols: 80, rows: 24 });
  assertEquals(parseSize("0080x0024"), { cols: 80, rows: 24 });
});

Deno.test("parseSize: 1 to 1000 each, inclusive; the error says the real limits", () => {
  assertEquals(parseSize("2x2"), { cols: 2, rows: 2 });
  assertEquals(parseSize("1x1"), { cols: 1, rows: 1 });
  assertEquals(parseSize("1000x1000"), { cols: 1000, rows: 1000 });
  for (const bad of ["0x10", "10x0", "1001x10", "10x1001", "0x0", "9999x10"]) {
    usage(
      () => parseSize(bad),
      /^Bad size '.*': use COLSxROWS, such as 120x40, up to 1000x1000; a pane is at least 20x5 \(a smaller size is raised to it\)$/,
    );
  }
});

Deno.test("fitPaneSize: a size below 20x5 is raised, and says from what", () => {
  assertEquals(fitPaneSize({ cols: 2, rows: 2 }), {
    cols: 20,
    rows: 5,
    raisedFrom: { cols: 2, rows: 2 },
  });
  assertEquals(fitPaneSize({ cols: 80, rows: 3 }), {
    cols: 80,
    rows: 5,
    raisedFrom: { cols: 80, rows: 3 },
  });
  assertEquals(fitPaneSize({ cols: 20, rows: 5 }), { cols: 20, rows: 5, raisedFrom: null });
});

Deno.test("parseSize: rejects other shapes and names the input", () => {
  for (
    const bad of ["", "120", "120x", "x40", "120X40", "120*40", "-5x10", "12.5x10", "10000x10"]
  ) {
    usage(() => parseSize(bad), new RegExp(`^Bad size '${bad.replace(/[*.]/g, "\\$&")}'`));
  }
});

Deno.test("parseEnvPairs: reads KEY=VALUE, splitting at the first '='", () => {
  assertEquals(parseEnvPairs([]), {});
  assertEquals(parseEnvPairs(["A=1", "_b2=x=y", "EMPTY=", "SP=a b"]), {
    A: "1",
    _b2: "x=y",
    EMPTY: "",
    SP: "a b",
  });
  assertEquals(parseEnvPairs(["A=1", "A=2"]), { A: "2" });
});

Deno.test("parseEnvPairs: rejects pairs without '=' or with a bad key", () => {
  for (const bad of ["A", "=1", "1A=x", "A-B=1", "A B=1", " A=1", "É=1"]) {
    usage(() => parseEnvPairs(["OK=1", bad]), /^Bad environment pair '.*': use KEY=VALUE$/);
  }
  const error = assertThrows(() => parseEnvPairs(["A-B=1"]));
  assertEquals(error.message, "Bad environment pair 'A-B=1': use KEY=VALUE");
});

Deno.test("secondsToMs: converts and rounds", () => {
  assertEquals(secondsToMs(0, "timeout"), 0);
  assertEquals(secondsToMs(1.5, "timeout"), 1500);
  assertEquals(secondsToMs(0.0004, "timeout"), 0);
  assertEquals(secondsToMs(0.0006, "timeout"), 1);
  assertEquals(secondsToMs(86_400, "timeout"), 86_400_000);
});

Deno.test("secondsToMs: rejects negative, too long and NaN, naming the option", () => {
  for (const bad of [-1, -0.001, 86_400.001, NaN, Infinity]) {
    usage(() => secondsToMs(bad, "wait"), /^Option '--wait' needs seconds from 0 to 86400$/);
  }
});
