import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  hasTable,
  removeTable,
  setTableKeys,
  tablePath,
  tomlValue,
} from "../../../lib/config/toml_edit.ts";
import { SkiffError } from "../../../lib/errors.ts";
import { parse } from "smol-toml";

function dataError(fn: () => unknown): SkiffError {
  const error = assertThrows(fn, /^Could not edit the config safely: /);
  assert(error instanceof SkiffError, `expected a SkiffError, got ${error}`);
  assertEquals(error.exit, "DATA");
  assertEquals(error.code, 6);
  return error;
}

Deno.test("tomlValue and tablePath", () => {
  assertEquals(tomlValue('a "b"\n'), '"a \\"b\\"\\n"');
  assertEquals(tomlValue(3), "3");
  assertEquals(tomlValue(true), "true");
  assertEquals(tomlValue(["x", "y z"]), '["x", "y z"]');
  assertEquals(tomlValue([]), "[]");
  assertEquals(tablePath(["projects", "web-app_2"]), "projects.web-app_2");
  assertEquals(tablePath(["projects", "my app", "a.b"]), 'projects."my app"."a.b"');
});

Deno.test("setTableKeys: adds a missing table at the end, after one blank line", () => {
  const text = "# Skiff\n[daemon]\nscrollback = 10\n";
  const out = setTableKeys(text, ["projects", "web"], { root: "/srv/web", command: ["a", "b c"] });
  assertEquals(
    out,
    '# Skiff\n[daemon]\nscrollback = 10\n\n[projects.web]\nroot = "/srv/web"\ncommand = ["a", "b c"]\n',
  );
  // Extra blank lines at the end collapse to one.
  assertEquals(
    setTableKeys("a = 1\n\n\n\n", ["t"], { k: "v" }),
    'a = 1\n\n[t]\nk = "v"\n',
  );
  // No final newline in the input.
  assertEquals(setTableKeys("a = 1", ["t"], { k: 2 }), "a = 1\n\n[t]\nk = 2\n");
});

Deno.test("setTableKeys: an empty file gets just the table; null values are left out", () => {
  assertEquals(
    setTableKeys("", ["projects", "web"], { root: "/x", command: null }),
    '[projects.web]\nroot = "/x"\n',
  );
  assertEquals(setTableKeys("\n\n", ["t"], { k: false }), "[t]\nk = false\n");
});

Deno.test("setTableKeys: updates a key in place, keeping its trailing comment and everything else", () => {
  const text = [
    "# projects",
    "",
    "[projects.web] # the site",
    'root = "/old" # where it lives',
    'command = "npm start"',
    "",
    "[projects.api]",
    'root = "/old"',
    "",
  ].join("\n");
  const out = setTableKeys(text, ["projects", "web"], { root: "/new" });
  assertEquals(
    out,
    text.replace('root = "/old" # where it lives', 'root = "/new" # where it lives'),
  );
  const doc = parse(out) as { projects: Record<string, { root: string }> };
  assertEquals(doc.projects.web.root, "/new");
  assertEquals(doc.projects.api.root, "/old");
});

Deno.test("setTableKeys: an aligned comment is kept with its padding", () => {
  const out = setTableKeys("[t]\nk = 1      # note\n", ["t"], { k: 22 });
  assertEquals(out, "[t]\nk = 22      # note\n");
});

Deno.test("setTableKeys: a value holding ' #' is not mistaken for a comment", () => {
  const text = '[t]\nk = "a # b"\n';
  assertEquals(setTableKeys(text, ["t"], { k: "c" }), '[t]\nk = "c"\n');
});

Deno.test({
  name: "setTableKeys: keeps a trailing comment that holds an apostrophe",
  fn() {
    const text = "[t]\nk = 1 # it's the one\n";
    assertEquals(setTableKeys(text, ["t"], { k: 2 }), "[t]\nk = 2 # it's the one\n");
  },
});

Deno.test("setTableKeys: a new key goes after the table's last key, before trailing blank lines", () => {
  const text = '[projects.web]\nroot = "/w"\n\n\n[projects.api]\nroot = "/a"\n';
  assertEquals(
    setTableKeys(text, ["projects", "web"], { command: "make" }),
    '[projects.web]\nroot = "/w"\ncommand = "make"\n\n\n[projects.api]\nroot = "/a"\n',
  );
  // The last table in the file.
  assertEquals(
    setTableKeys(text, ["projects", "api"], { command: "go" }),
    '[projects.web]\nroot = "/w"\n\n\n[projects.api]\nroot = "/a"\ncommand = "go"\n',
  );
  // A table with only its header.
  assertEquals(setTableKeys("[t]\n\n[u]\n", ["t"], { k: 1 }), "[t]\nk = 1\n\n[u]\n");
});

Deno.test({
  name: "setTableKeys: a new key goes above the comment that belongs to the next table",
  fn() {
    const text = '[projects.a]\nroot = "/a"\n\n# The B project\n[projects.b]\nroot = "/b"\n';
    assertEquals(
      setTableKeys(text, ["projects", "a"], { command: "x" }),
      '[projects.a]\nroot = "/a"\ncommand = "x"\n\n# The B project\n[projects.b]\nroot = "/b"\n',
    );
  },
});

Deno.test("setTableKeys: several entries at once, in order; null removes a key", () => {
  const text = "[t]\na = 1\nb = 2 # two\nc = 3\n\n[u]\nx = 1\n";
  assertEquals(
    setTableKeys(text, ["t"], { b: null, d: "new", a: 10, missing: null }),
    '[t]\na = 10\nc = 3\nd = "new"\n\n[u]\nx = 1\n',
  );
});

Deno.test("setTableKeys: keys of another table or with a longer name are left alone", () => {
  const text = "[t]\nrootx = 1\n\n[u]\nroot = 2\n";
  assertEquals(
    setTableKeys(text, ["t"], { root: 3 }),
    "[t]\nrootx = 1\nroot = 3\n\n[u]\nroot = 2\n",
  );
});

Deno.test("setTableKeys: quoted keys and quoted table names", () => {
  const text = '["my table"]\n"my key" = 1\n\'lit key\' = 2\n';
  assertEquals(
    setTableKeys(text, ["my table"], { "my key": 5, "lit key": null, "new key": "v" }),
    '["my table"]\n"my key" = 5\n"new key" = "v"\n',
  );
  // Headers are matched however they are spelled.
  const spaced = '[ projects . "web" ]\nroot = "/a"\n';
  assertEquals(
    setTableKeys(spaced, ["projects", "web"], { root: "/b" }),
    '[ projects . "web" ]\nroot = "/b"\n',
  );
  assertEquals(hasTable(spaced, ["projects", "web"]), true);
  // A table name that needs quotes is written with them.
  const added = setTableKeys("", ["projects", "my.app"], { root: "/m" });
  assertEquals(added, '[projects."my.app"]\nroot = "/m"\n');
  assertEquals((parse(added) as { projects: Record<string, unknown> }).projects["my.app"], {
    root: "/m",
  });
});

Deno.test("setTableKeys: an edit that would make invalid TOML throws DATA", () => {
  // The table exists, but inline, so adding a header for it would define it twice.
  const inline = '[projects]\nweb = { root = "/w" }\n';
  const error = dataError(() => setTableKeys(inline, ["projects", "web"], { command: "x" }));
  assertEquals(error.message.includes("\n"), false, "one line");
  // Text that is already broken cannot be edited either.
  dataError(() => setTableKeys("[t]\nj = \n", ["t"], { k: 1 }));
  dataError(() => removeTable("[t]\nk = 1\n[u]\nj = \n", ["t"]));
  dataError(() => setTableKeys("[t]\nk = 1\nk = 2\n", ["u"], { k: 1 }));
});

Deno.test("setTableKeys: `[x]` lines inside multi-line strings are not headers", () => {
  const text = [
    "[notes]",
    'text = """',
    "[projects.web]",
    'root = "/fake"',
    '"""',
    "raw = '''",
    "[projects.web]",
    "'''",
    "",
    "[projects.web]",
    'root = "/real"',
    "",
  ].join("\n");
  const out = setTableKeys(text, ["projects", "web"], { root: "/new" });
  assertEquals(out, text.replace('root = "/real"', 'root = "/new"'));
  const doc = parse(out) as { notes: Record<string, string> };
  assertEquals(doc.notes.text, '[projects.web]\nroot = "/fake"\n');
  // With only the string, the table does not exist.
  const onlyString = 'a = """\n[t]\n"""\n';
  assertEquals(hasTable(onlyString, ["t"]), false);
  assertEquals(removeTable(onlyString, ["t"]), onlyString);
  assertEquals(setTableKeys(onlyString, ["t"], { k: 1 }), 'a = """\n[t]\n"""\n\n[t]\nk = 1\n');
  // A one-line triple-quoted string does not open a multi-line string.
  const oneLine = 'a = """x"""\n[t]\nk = 1\n';
  assertEquals(hasTable(oneLine, ["t"]), true);
});

Deno.test("hasTable", () => {
  const text = "[a]\nx = 1\n[a.b] # sub\n[[list]]\n";
  assertEquals(hasTable(text, ["a"]), true);
  assertEquals(hasTable(text, ["a", "b"]), true);
  assertEquals(hasTable(text, ["list"]), true);
  assertEquals(hasTable(text, ["b"]), false);
  assertEquals(hasTable("x = [1]\n", ["1"]), false);
});

const PROJECTS = [
  "# Skiff projects",
  "",
  "[daemon]",
  "scrollback = 5000",
  "",
  "# The web site.",
  "# Second line.",
  "[projects.web]",
  'root = "/srv/web"',
  "",
  "[projects.web.env]",
  'A = "1"',
  "",
  "[projects.api] # api",
  'root = "/srv/api"',
  "",
  "# Not above a header.",
  "",
  "[projects.webx]",
  'root = "/srv/webx"',
  "",
].join("\n");

Deno.test("removeTable: removes a table, its sub-tables and the comment lines directly above", () => {
  const out = removeTable(PROJECTS, ["projects", "web"]);
  assertEquals(
    out,
    [
      "# Skiff projects",
      "",
      "[daemon]",
      "scrollback = 5000",
      "",
      "[projects.api] # api",
      'root = "/srv/api"',
      "",
      "# Not above a header.",
      "",
      "[projects.webx]",
      'root = "/srv/webx"',
      "",
    ].join("\n"),
  );
  assertEquals(hasTable(out, ["projects", "webx"]), true);
});

Deno.test("removeTable: sub-tables elsewhere in the file go too", () => {
  const text = "[a]\nx = 1\n\n[b]\ny = 2\n\n[a.sub]\nz = 3\n\n[c]\nw = 4\n";
  assertEquals(removeTable(text, ["a"]), "[b]\ny = 2\n\n[c]\nw = 4\n");
});

Deno.test("removeTable: a table in the middle keeps everything else byte for byte", () => {
  const text = "top = 1\r\n\r\n[a]\r\nk = 1\r\n\r\n# b\r\n[b]\r\nk = 2\r\n\r\n[c]\r\nk = 3\r\n";
  assertEquals(removeTable(text, ["b"]), "top = 1\r\n\r\n[a]\r\nk = 1\r\n\r\n[c]\r\nk = 3\r\n");
});

Deno.test("removeTable: returns the text unchanged when the table is missing", () => {
  assertEquals(removeTable(PROJECTS, ["projects", "nope"]), PROJECTS);
  assertEquals(removeTable(PROJECTS, ["projects", "we"]), PROJECTS);
  assertEquals(removeTable("", ["t"]), "");
});

Deno.test("removeTable: the only table leaves the file's other content", () => {
  assertEquals(removeTable("[t]\nk = 1\n", ["t"]), "");
  assertEquals(parse(removeTable("x = 1\n\n[t]\nk = 1\n", ["t"])), { x: 1 });
});

Deno.test({
  name: "removeTable: removing the last table keeps the final newline",
  fn() {
    assertEquals(removeTable("[a]\nx = 1\n\n[b]\ny = 2\n", ["b"]), "[a]\nx = 1\n");
    assertEquals(
      removeTable(PROJECTS, ["projects", "webx"]).endsWith(
        'root = "/srv/api"\n\n# Not above a header.\n',
      ),
      true,
    );
  },
});

Deno.test("removeTable with keepComments: only the header, the keys and what lies between them go", () => {
  const text = [
    "top = 1",
    "",
    "# Mine, above the table.",
    "[t]",
    "a = 1",
    "# between its keys",
    "b = 2",
    "",
    "# Introduces u.",
    "[u]",
    "c = 3",
    "",
  ].join("\n");
  assertEquals(
    removeTable(text, ["t"], { keepComments: true }),
    "top = 1\n\n# Mine, above the table.\n\n# Introduces u.\n[u]\nc = 3\n",
  );
  // Without it, the comment directly above goes too (a project's or a host's own); the one
  // directly above the next table is that table's, and stays.
  assertEquals(removeTable(text, ["t"]), "top = 1\n\n# Introduces u.\n[u]\nc = 3\n");
  assertEquals(
    removeTable("[t]\na = 1\n# the end\n", ["t"], { keepComments: true }),
    "# the end\n",
  );
});
