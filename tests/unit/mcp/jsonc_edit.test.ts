import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import {
  bareObjectAt,
  existingDepth,
  removeEntry,
  setEntry,
  valueAt,
} from "../../../lib/mcp/install/jsonc_edit.ts";
import type { SkiffError } from "../../../lib/errors.ts";

const ENTRY = { command: "/bin/skiff", args: ["mcp"] };
const PATH = ["mcpServers", "skiff"];

Deno.test("jsonc edit: an entry goes after the others, keeping their layout and comments, and comes out again", () => {
  const text = `{
  // servers
  "mcpServers": {
    "a": { "command": "a" } // a's comment
  },
  "theme": "dark"
}
`;
  const added = setEntry(text, PATH, ENTRY, "f");
  assertEquals(
    added,
    `{
  // servers
  "mcpServers": {
    "a": { "command": "a" }, // a's comment
    "skiff": {
      "command": "/bin/skiff",
      "args": [
        "mcp"
      ]
    }
  },
  "theme": "dark"
}
`,
  );
  assertEquals(valueAt(added, PATH, "f"), ENTRY);
  assertEquals(removeEntry(added, PATH, "f"), text);
});

Deno.test("jsonc edit: trailing commas are kept as the file has them", () => {
  const text = `{\n  "mcp": {\n    "a": 1,\n  },\n}\n`;
  const added = setEntry(text, ["mcp", "skiff"], { b: 2 }, "f");
  assertEquals(
    added,
    `{\n  "mcp": {\n    "a": 1,\n    "skiff": {\n      "b": 2\n    },\n  },\n}\n`,
  );
  assertEquals(removeEntry(added, ["mcp", "skiff"], "f"), text);
});

Deno.test("jsonc edit: a missing file, object or key is made; the only entry leaves {}", () => {
  assertEquals(
    setEntry("", PATH, { a: 1 }, "f"),
    `{\n  "mcpServers": {\n    "skiff": {\n      "a": 1\n    }\n  }\n}\n`,
  );
  const made = setEntry(`{\n  "theme": "dark"\n}\n`, PATH, { a: 1 }, "f");
  assertEquals(
    made,
    `{\n  "theme": "dark",\n  "mcpServers": {\n    "skiff": {\n      "a": 1\n    }\n  }\n}\n`,
  );
  assertEquals(removeEntry(made, PATH, "f"), `{\n  "theme": "dark",\n  "mcpServers": {}\n}\n`);
  assertEquals(
    setEntry(`{}\n`, PATH, { a: 1 }, "f"),
    `{\n  "mcpServers": {\n    "skiff": {\n      "a": 1\n    }\n  }\n}\n`,
  );
  // A value already there is replaced in place.
  const replaced = setEntry(made, PATH, { a: 2 }, "f");
  assertEquals(valueAt(replaced, PATH, "f"), { a: 2 });
  assertEquals(removeEntry(`{ "x": 1 }`, PATH, "f"), `{ "x": 1 }`);
});

Deno.test("jsonc edit: the only entry of an object leaves the object's comments, and {} only when nothing else is in it", () => {
  const commented = `{
  "mcpServers": {
    // Servers I may add back:
    // "old": { "command": "old-mcp" },
    "skiff": {
      "command": "/bin/skiff"
    }
  }
}
`;
  assertEquals(
    removeEntry(commented, PATH, "f"),
    `{
  "mcpServers": {
    // Servers I may add back:
    // "old": { "command": "old-mcp" },
  }
}
`,
  );
  assertEquals(bareObjectAt(removeEntry(commented, PATH, "f"), ["mcpServers"], "f"), false);
  const after = `{
  "mcpServers": {
    "skiff": { "a": 1 } /* mine */
  }
}
`;
  assertEquals(
    removeEntry(after, PATH, "f"),
    `{
  "mcpServers": {
     /* mine */
  }
}
`,
  );
  const bare = removeEntry(
    `{
  "mcpServers": {
    "skiff": 1,
  },
}
`,
    PATH,
    "f",
  );
  assertEquals(
    bare,
    `{
  "mcpServers": {},
}
`,
  );
  assertEquals(bareObjectAt(bare, ["mcpServers"], "f"), true);
  assertEquals(bareObjectAt(bare, [], "f"), false);
  assertEquals(bareObjectAt(`{ }`, [], "f"), true);
  assertEquals(bareObjectAt(`{ /* x */ }`, [], "f"), false);
  assertEquals(existingDepth(`{}`, ["mcpServers"], "f"), 0);
  assertEquals(existingDepth(`{ "mcpServers": {} }`, ["mcpServers"], "f"), 1);
  assertEquals(existingDepth(`{ "mcpServers": [] }`, ["mcpServers"], "f"), 0);
  assertEquals(existingDepth("", ["mcpServers"], "f"), 0);
});

Deno.test("jsonc edit: a broken file, or a server table that is not an object, is refused with DATA", () => {
  const exitOf = (work: () => unknown, pattern: RegExp) =>
    (assertThrows(work, pattern) as SkiffError).exit;
  assertEquals(
    exitOf(
      () => setEntry(`{ "a": }`, PATH, ENTRY, "f.json"),
      /^f\.json:1: not a JSON object Skiff can edit/,
    ),
    "DATA",
  );
  assertEquals(
    exitOf(
      () => setEntry(`{ "mcpServers": [] }`, PATH, ENTRY, "f.json"),
      /'mcpServers' is not an object/,
    ),
    "DATA",
  );
  assertEquals(exitOf(() => setEntry(`[1]`, PATH, ENTRY, "f.json"), /not a JSON object/), "DATA");
});

Deno.test("jsonc edit: an object with only comments keeps them, the entry going after them", () => {
  const text = `{\n  "mcpServers": {\n    // gh-mcp is off for now\n  }\n}\n`;
  const added = setEntry(text, PATH, { a: 1 }, "f");
  assertEquals(
    added,
    `{\n  "mcpServers": {\n    // gh-mcp is off for now\n    "skiff": {\n      "a": 1\n    }\n  }\n}\n`,
  );
  assertEquals(removeEntry(added, PATH, "f"), text);
  assertEquals(
    setEntry(`{ "mcpServers": { /* none */ } }`, PATH, 1, "f"),
    `{ "mcpServers": { /* none */\n  "skiff": 1\n} }`,
  );
});
