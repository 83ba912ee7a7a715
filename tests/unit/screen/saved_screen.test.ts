import { assert, assertEquals } from "../../helpers/assert.ts";
import { type SavedScreen, Screen } from "../../../lib/screen/screen.ts";
import { historyAbove, historyAboveLines, markerLine } from "../../../lib/screen/saved_screen.ts";

const encoder = new TextEncoder();

function screen(cols = 30, rows = 5, scrollback = 100): Screen {
  return new Screen(cols, rows, { scrollback, respond: () => {} });
}

function print(s: Screen, text: string): void {
  s.writeSync(encoder.encode(text));
}

function lines(n: number, from = 0): string {
  let text = "";
  for (let i = from; i < from + n; i++) text += `\x1b[3${i % 8}mline ${i}\x1b[0m\r\n`;
  return text;
}

Deno.test("history tap: each take brings only the lines that scrolled up since the last", () => {
  const s = screen();
  try {
    print(s, lines(8));
    const first = s.takeHistory();
    assertEquals([first.reset, first.lines], [true, 4]);
    // Nothing new: nothing taken.
    assertEquals(s.takeHistory(), { reset: false, text: "", lines: 0 });
    print(s, lines(3, 8));
    const next = s.takeHistory();
    assertEquals([next.reset, next.lines], [false, 3]);
    const copy = screen();
    try {
      copy.writeHistory(first.text + next.text);
      assertEquals(copy.lines({ scrollback: 100 }).slice(0, 7), [
        "line 0",
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "line 6",
      ]);
      assert(first.text.includes("\x1b[31mline 1"), "colours are kept");
    } finally {
      copy.dispose();
    }
  } finally {
    s.dispose();
  }
});

Deno.test("history tap: a cleared history, a reset or a resize starts over", () => {
  const s = screen();
  try {
    print(s, lines(8));
    s.takeHistory();
    print(s, "\x1b[3J");
    assertEquals(s.takeHistory().reset, true);
    print(s, lines(8));
    s.takeHistory();
    print(s, "\x1bc");
    assertEquals(s.takeHistory().reset, true);
    print(s, lines(8));
    s.takeHistory();
    s.resize(20, 5);
    const after = s.takeHistory();
    assertEquals(after.reset, true);
    assert(after.lines > 0);
  } finally {
    s.dispose();
  }
});

Deno.test("history tap: lines that dropped off the top before a take are skipped, not doubled", () => {
  const s = screen(30, 5, 10);
  try {
    print(s, lines(8));
    s.takeHistory();
    print(s, lines(40, 8));
    const next = s.takeHistory();
    assertEquals(next.reset, false);
    assertEquals(next.lines, 10);
    assert(next.text.includes("line 43") && !next.text.includes("line 3\x1b"));
  } finally {
    s.dispose();
  }
});

Deno.test("Screen.state and restore: history, screen, alternate screen, modes and title come back", () => {
  const s = screen();
  const copy = screen();
  try {
    print(
      s,
      lines(12) + "\x1b]2;my title\x07\x1b[?2004h\x1b[?1049h\x1b[Hfull screen app\x1b[2;3Hhere",
    );
    const saved: SavedScreen = JSON.parse(JSON.stringify(s.state()));
    copy.restore(saved);
    assertEquals(copy.lines({ scrollback: 100 }), s.lines({ scrollback: 100 }));
    assertEquals(copy.alternate, true);
    assertEquals(copy.bracketedPaste, true);
    assertEquals(copy.title, "my title");
    assertEquals(copy.snapshot().cursor, s.snapshot().cursor);
    print(s, "\x1b[?1049l");
    print(copy, "\x1b[?1049l");
    assertEquals(copy.lines({ scrollback: 100 }), s.lines({ scrollback: 100 }));
  } finally {
    s.dispose();
    copy.dispose();
  }
});

Deno.test("historyAbove: old history and last screen, then the marker; the next program prints below", () => {
  const s = screen(40, 6);
  try {
    print(s, lines(9) + "$ agent\r\n\x1b[?1049h\x1b[HAGENT SCREEN\x1b[3;1Hbusy…");
    const prelude = historyAbove(s.state(), "restored");
    const drawn = prelude.split("\n").length - 1;
    assert(historyAboveLines(s.state()) >= drawn, `the bound covers the ${drawn} lines drawn`);
    const fresh = screen(40, 6);
    try {
      print(fresh, prelude + "$ ");
      const all = fresh.lines({ scrollback: 100 }).filter((l) => l !== "");
      assertEquals(all.slice(0, 3), ["line 0", "line 1", "line 2"]);
      assertEquals(all.slice(-5), ["$ agent", "AGENT SCREEN", "busy…", all.at(-2)!, "$"]);
      assert(all.at(-2)!.startsWith("── restored ─"), all.at(-2));
      assertEquals(fresh.alternate, false);
    } finally {
      fresh.dispose();
    }
  } finally {
    s.dispose();
  }
});

Deno.test("markerLine: fills the width and ends the line", () => {
  const line = markerLine("new shell", 30);
  assert(line.endsWith("\r\n"));
  assertEquals([...line.replace(/\x1b\[[0-9;]*m/g, "").trimEnd()].length, 30);
});

Deno.test("history tap: a take brings at most maxLines, the newest", () => {
  const s = screen(30, 5, 1000);
  try {
    print(s, lines(100));
    const take = s.takeHistory({ maxLines: 10 });
    assertEquals([take.reset, take.lines], [true, 10]);
    assert(take.text.includes("line 95") && !take.text.includes("line 85"));
  } finally {
    s.dispose();
  }
});

Deno.test("history tap: after a flood scrolled lines away untaken, a take brings at most overrunLines", () => {
  const s = screen(30, 5, 100);
  try {
    print(s, lines(10));
    s.takeHistory();
    print(s, lines(500, 10));
    const take = s.takeHistory({ maxLines: 2000, overrunLines: 20 });
    assertEquals([take.reset, take.lines], [false, 20]);
    print(s, lines(30, 510));
    // No lines were lost this time: every new one is taken.
    assertEquals(s.takeHistory({ maxLines: 2000, overrunLines: 20 }).lines, 30);
  } finally {
    s.dispose();
  }
});

Deno.test("markOldAbove: rows an earlier process left read as blank to agent rules, until they scroll away", () => {
  const s = screen(40, 6);
  try {
    print(s, "old busy line · esc to interrupt\r\n── marker ──\r\n");
    s.markOldAbove();
    print(s, "$ new shell");
    const rows = s.view().rows.map((r) => r.text);
    assertEquals(rows.slice(0, 3), ["", "", "$ new shell"]);
    assertEquals(s.lines().slice(0, 2), ["old busy line · esc to interrupt", "── marker ──"]);
    print(s, "\r\n1\r\n2\r\n3\r\n4\r\n5");
    assertEquals(s.view().rows.map((r) => r.text), ["$ new shell", "1", "2", "3", "4", "5"]);
  } finally {
    s.dispose();
  }
});

Deno.test("markOldAbove: a program that clears the screen draws where it likes, all of it read", () => {
  const s = screen(40, 6);
  try {
    print(s, "old line\r\n── marker ──\r\n");
    s.markOldAbove();
    print(s, "\x1b[H\x1b[2Jtop row of a full-screen app");
    assertEquals(s.view().rows[0].text, "top row of a full-screen app");
  } finally {
    s.dispose();
  }
});
