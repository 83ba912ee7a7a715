import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { findCommand, GLOBAL_OPTIONS, parse } from "../../../lib/cli/parse.ts";
import { SkiffError } from "../../../lib/errors.ts";
import type { CommandSpec } from "../../../lib/cli/spec.ts";

const run = () => Promise.resolve();

/** The options that were given: the parser's defaults (false, []) left out. */
function given(opts: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(opts).filter(([, v]) => v !== false && !(Array.isArray(v) && v.length === 0)),
  );
}

const send: CommandSpec = {
  name: "send",
  summary: "Send text",
  args: [{ name: "PANE", required: true }, { name: "TEXT" }],
  options: [
    { name: "count", short: "n", type: "number", help: "How many" },
    { name: "name", short: "N", type: "string", help: "A name" },
    { name: "env", short: "e", type: "list", help: "K=V" },
    { name: "wait", short: "w", type: "boolean", help: "Wait" },
  ],
  run,
};

const exec: CommandSpec = {
  name: "exec",
  summary: "Run a command",
  args: [{ name: "PANE", required: true }],
  options: [{ name: "cwd", type: "string", help: "Folder" }],
  passthrough: "COMMAND ARGS…",
  run,
};

const keys: CommandSpec = {
  name: "keys",
  summary: "Send keys",
  args: [{ name: "PANE", required: true }, { name: "KEYS", required: true, variadic: true }],
  options: [{ name: "literal", short: "l", type: "boolean", help: "Literal" }],
  run,
};

const tail: CommandSpec = {
  name: "tail",
  summary: "Optional variadic",
  args: [{ name: "FILES", variadic: true }],
  run,
};

const start: CommandSpec = {
  name: "start",
  aliases: ["up"],
  summary: "Start skiffd",
  options: [{ name: "foreground", type: "boolean", help: "Stay" }],
  run,
};

const daemon: CommandSpec = {
  name: "daemon",
  summary: "Manage skiffd",
  subcommands: [start, { name: "stop", summary: "Stop", run }],
};

const root: CommandSpec = {
  name: "skiff",
  summary: "Skiff",
  subcommands: [send, exec, keys, tail, daemon],
};

/** Runs `fn`, which must throw a USAGE SkiffError, and returns its message. */
function usage(fn: () => unknown): string {
  const error = assertThrows(fn);
  assert(error instanceof SkiffError, `expected a SkiffError, got ${error}`);
  assertEquals(error.exit, "USAGE");
  assertEquals(error.code, 2);
  return error.message;
}

Deno.test("parse: a command with positional args and no options", () => {
  const parsed = parse(root, ["send", "web", "hello"]);
  assertEquals(parsed.command, send);
  assertEquals(parsed.path, ["send"]);
  assertEquals(parsed.args, { PANE: "web", TEXT: "hello" });
  assertEquals(given(parsed.opts), {});
  assertEquals(parsed.rest, []);
});

Deno.test("parse: options before, between and after positional args", () => {
  for (
    const argv of [
      ["send", "--count", "3", "--name", "x", "web", "hello"],
      ["send", "web", "--count", "3", "hello", "--name", "x"],
      ["send", "web", "hello", "--count", "3", "--name", "x"],
    ]
  ) {
    const parsed = parse(root, argv);
    assertEquals(parsed.args, { PANE: "web", TEXT: "hello" }, argv.join(" "));
    assertEquals(given(parsed.opts), { count: 3, name: "x" }, argv.join(" "));
  }
});

Deno.test("parse: --name=value, including '='", () => {
  assertEquals(given(parse(root, ["send", "web", "--name=a=b"]).opts), { name: "a=b" });
  assertEquals(given(parse(root, ["send", "web", "--count=12"]).opts), { count: 12 });
});

Deno.test("parse: short options, separate and attached values", () => {
  assertEquals(given(parse(root, ["send", "web", "-n", "4"]).opts), { count: 4 });
  assertEquals(given(parse(root, ["send", "web", "-n4"]).opts), { count: 4 });
  assertEquals(given(parse(root, ["send", "web", "-Nbob"]).opts), { name: "bob" });
  assertEquals(given(parse(root, ["send", "web", "-w"]).opts), { wait: true });
  assertEquals(given(parse(root, ["send", "web", "-h"]).opts), { help: true });
});

Deno.test("parse: a list option repeats and keeps order; others keep the last value", () => {
  const parsed = parse(root, ["send", "web", "-e", "A=1", "--env=B=2", "--env", "C=3"]);
  assertEquals(parsed.opts.env, ["A=1", "B=2", "C=3"]);
  assertEquals(parse(root, ["send", "web", "--name", "a", "--name", "b"]).opts.name, "b");
});

Deno.test("parse: an option value may look like an option or a negative number", () => {
  assertEquals(parse(root, ["send", "web", "--count", "-5"]).opts.count, -5);
  assertEquals(given(parse(root, ["send", "web", "--name", "--wait"]).opts), { name: "--wait" });
});

Deno.test("parse: numbers", () => {
  assertEquals(parse(root, ["send", "web", "--count", "2.5"]).opts.count, 2.5);
  assertEquals(parse(root, ["send", "web", "--count", "0"]).opts.count, 0);
  for (const bad of ["abc", "", " ", "Infinity", "NaN", "3x"]) {
    const message = usage(() => parse(root, ["send", "web", "--count", bad]));
    assertEquals(
      message,
      `Option '--count' needs a number, not '${bad}'. See 'skiff send --help'.`,
    );
  }
});

Deno.test("parse: boolean options take no value; value options need one", () => {
  assertEquals(
    usage(() => parse(root, ["send", "web", "--wait=yes"])),
    "Option '--wait' takes no value. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["send", "web", "--name"])),
    "Option '--name' needs a value. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["send", "web", "-n"])),
    "Option '--count' needs a value. See 'skiff send --help'.",
  );
});

Deno.test("parse: a flag that may carry a value takes it only on itself, after '='", () => {
  const land: CommandSpec = {
    name: "land",
    summary: "Land",
    args: [{ name: "PANE", required: true }, { name: "REMOTE" }],
    options: [
      { name: "push", type: "boolean", value: "REMOTE", inlineValue: true, help: "Push" },
      { name: "dry-run", type: "boolean", help: "Dry run" },
    ],
    run,
  };
  const read = (argv: string[]) => {
    const parsed = parse(land, argv);
    return [parsed.opts.push, parsed.args.PANE, parsed.args.REMOTE];
  };
  assertEquals(read(["web", "--push=upstream"]), ["upstream", "web", undefined]);
  assertEquals(read(["--push=upstream", "web"]), ["upstream", "web", undefined]);
  assertEquals(read(["web", "--push"]), [true, "web", undefined]);
  // The next word is never the flag's: it stays an argument.
  assertEquals(read(["web", "--push", "upstream"]), [true, "web", "upstream"]);
  assertEquals(read(["--push", "web"]), [true, "web", undefined]);
  assertEquals(read(["web"]), [false, "web", undefined]);
  assertEquals(
    usage(() => parse(land, ["web", "--push="], { prefix: ["land"] })),
    "Option '--push=' needs a REMOTE after '='. See 'skiff land --help'.",
  );
  assertEquals(
    usage(() => parse(land, ["web", "--dry-run=yes"], { prefix: ["land"] })),
    "Option '--dry-run' takes no value. See 'skiff land --help'.",
  );
});

Deno.test("parse: the global options work everywhere", () => {
  assertEquals(GLOBAL_OPTIONS.map((o) => o.name), ["json", "help"]);
  assertEquals(given(parse(root, ["--json", "send", "web"]).opts), { json: true });
  assertEquals(given(parse(root, ["send", "web", "--json"]).opts), { json: true });
  assertEquals(given(parse(root, ["daemon", "--json", "start"]).opts), { json: true });
});

Deno.test("parse: unknown options, with the command's help hint", () => {
  assertEquals(
    usage(() => parse(root, ["send", "web", "--nope"])),
    "Unknown option '--nope'. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["send", "web", "-z"])),
    "Unknown option '-z'. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["--nope"])),
    "Unknown option '--nope'. See 'skiff --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["daemon", "start", "--nope"])),
    "Unknown option '--nope'. See 'skiff daemon start --help'.",
  );
  // An option of another command is unknown here.
  assertEquals(
    usage(() => parse(root, ["exec", "p", "--count", "1"])),
    "Unknown option '--count'. See 'skiff exec --help'.",
  );
});

Deno.test("parse: unknown commands name the whole command line so far", () => {
  assertEquals(
    usage(() => parse(root, ["nope"])),
    "Unknown command 'nope'. See 'skiff --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["daemon", "nope"])),
    "Unknown command 'daemon nope'. See 'skiff daemon --help'.",
  );
});

Deno.test("parse: the prefix option is part of every hint", () => {
  const prefix = { prefix: ["ledger"] };
  assertEquals(
    usage(() => parse(daemon, ["nope"], prefix)),
    "Unknown command 'ledger nope'. See 'skiff ledger --help'.",
  );
  assertEquals(
    usage(() => parse(daemon, ["start", "--nope"], prefix)),
    "Unknown option '--nope'. See 'skiff ledger start --help'.",
  );
  assertEquals(
    usage(() => parse(send, ["--count", "x"], { prefix: ["send"] })),
    "Option '--count' needs a number, not 'x'. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(send, [], { prefix: ["send"] })),
    "Missing argument PANE. See 'skiff send --help'.",
  );
  // The prefix shows in messages only, not in the parsed path.
  assertEquals(parse(daemon, ["start"], prefix).path, ["start"]);
});

Deno.test("parse: '--' passes the rest through only where the command allows it", () => {
  const parsed = parse(root, ["exec", "p", "--cwd", "/tmp", "--", "ls", "--json", "-la", "--"]);
  assertEquals(parsed.args, { PANE: "p" });
  assertEquals(given(parsed.opts), { cwd: "/tmp" });
  assertEquals(parsed.rest, ["ls", "--json", "-la", "--"]);
  assertEquals(parse(root, ["exec", "p", "--"]).rest, []);
  assertEquals(
    usage(() => parse(root, ["send", "web", "--", "x"])),
    "'--' is not allowed here. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["--", "exec"])),
    "'--' is not allowed here. See 'skiff --help'.",
  );
});

Deno.test("parse: missing, optional and unexpected arguments", () => {
  assertEquals(
    usage(() => parse(root, ["send"])),
    "Missing argument PANE. See 'skiff send --help'.",
  );
  const parsed = parse(root, ["send", "web"]);
  assertEquals(parsed.args.TEXT, undefined);
  assert("TEXT" in parsed.args, "an optional arg is present as undefined");
  assertEquals(
    usage(() => parse(root, ["send", "web", "hi", "extra"])),
    "Unexpected argument 'extra'. See 'skiff send --help'.",
  );
  assertEquals(
    usage(() => parse(root, ["daemon", "stop", "now"])),
    "Unexpected argument 'now'. See 'skiff daemon stop --help'.",
  );
});

Deno.test("parse: variadic arguments take the rest; required ones need one", () => {
  assertEquals(parse(root, ["keys", "web", "C-c", "Enter", "x"]).args, {
    PANE: "web",
    KEYS: ["C-c", "Enter", "x"],
  });
  assertEquals(
    usage(() => parse(root, ["keys", "web"])),
    "Missing argument KEYS. See 'skiff keys --help'.",
  );
  assertEquals(parse(root, ["tail"]).args, { FILES: [] });
  assertEquals(parse(root, ["tail", "a", "b"]).args, { FILES: ["a", "b"] });
  // Options mixed into variadic arguments are still options.
  const parsed = parse(root, ["keys", "web", "a", "-l", "b"]);
  assertEquals(parsed.args.KEYS, ["a", "b"]);
  assertEquals(given(parsed.opts), { literal: true });
});

Deno.test("parse: a negative-number-looking word is a positional while args remain", () => {
  assertEquals(parse(root, ["send", "-5"]).args, { PANE: "-5", TEXT: undefined });
  assertEquals(parse(root, ["send", "web", "-1.5"]).args, { PANE: "web", TEXT: "-1.5" });
  // No room left: it is an unknown option.
  assertEquals(
    usage(() => parse(root, ["send", "web", "hi", "-3"])),
    "Unknown option '-3'. See 'skiff send --help'.",
  );
  // A word that merely starts with '-' and a letter is never a positional.
  assertEquals(
    usage(() => parse(root, ["send", "-x5"])),
    "Unknown option '-x5'. See 'skiff send --help'.",
  );
  // A lone '-' is a positional (stdin, by convention).
  assertEquals(parse(root, ["send", "-"]).args.PANE, "-");
});

Deno.test({
  name: "parse: every negative number goes to a trailing variadic argument",
  fn() {
    assertEquals(parse(root, ["keys", "web", "-1", "-2"]).args, {
      PANE: "web",
      KEYS: ["-1", "-2"],
    });
  },
});

Deno.test("parse: subcommand groups, aliases and the path", () => {
  const parsed = parse(root, ["daemon", "up", "--foreground"]);
  assertEquals(parsed.command, start);
  assertEquals(parsed.path, ["daemon", "start"]);
  assertEquals(given(parsed.opts), { foreground: true });
  // A group without a subcommand is returned as is, for its help.
  const group = parse(root, ["daemon"]);
  assertEquals(group.command, daemon);
  assertEquals(group.path, ["daemon"]);
  assertEquals(group.args, {});
  // The subcommand's options are unknown to the group before it is chosen.
  assertEquals(
    usage(() => parse(root, ["daemon", "--foreground", "start"])),
    "Unknown option '--foreground'. See 'skiff daemon --help'.",
  );
});

Deno.test("parse: --help skips argument checks", () => {
  const parsed = parse(root, ["send", "--help"]);
  assertEquals(parsed.command, send);
  assertEquals(given(parsed.opts), { help: true });
  assertEquals(parsed.args, {});
  assertEquals(parse(root, ["keys", "-h", "web"]).opts.help, true);
});

Deno.test("findCommand: by name or alias", () => {
  assertEquals(findCommand(daemon.subcommands!, "start"), start);
  assertEquals(findCommand(daemon.subcommands!, "up"), start);
  assertEquals(findCommand(daemon.subcommands!, "down"), undefined);
});

Deno.test("parse: an empty argument is refused in its name, unless its spec allows it", () => {
  const refused = (spec: CommandSpec, argv: string[]) =>
    usage(() => parse(spec, argv, { prefix: [spec.name] }));
  assertEquals(refused(send, [""]), "Argument PANE is empty. See 'skiff send --help'.");
  assertEquals(refused(send, ["p1", ""]), "Argument TEXT is empty. See 'skiff send --help'.");
  assertEquals(refused(keys, ["p1", "a", ""]), "Argument KEYS is empty. See 'skiff keys --help'.");
  const lenient: CommandSpec = { ...send, args: [{ name: "PANE", empty: true }] };
  assertEquals(parse(lenient, [""]).args.PANE, "");
  // `--help` still shows the help, whatever the arguments.
  assertEquals(parse(send, ["", "--help"]).opts.help, true);
});

Deno.test("parse: an empty option value is refused in the option's name, unless its spec allows it", () => {
  const refused = (spec: CommandSpec, argv: string[]) =>
    usage(() => parse(spec, argv, { prefix: [spec.name] }));
  const line = "Option '--name' is empty. See 'skiff send --help'.";
  assertEquals(refused(send, ["p1", "--name", ""]), line);
  assertEquals(refused(send, ["p1", "--name="]), line);
  assertEquals(refused(send, ["p1", "-N", ""]), line);
  assertEquals(
    refused(send, ["p1", "-e", "A=1", "--env", ""]),
    "Option '--env' is empty. See 'skiff send --help'.",
  );
  // The empty value is named before an option that is missing.
  const needs: CommandSpec = {
    ...send,
    options: [...send.options!, { name: "to", type: "string", help: "To", required: true }],
  };
  assertEquals(refused(needs, ["p1", "--name", ""]), line);
  const lenient: CommandSpec = {
    ...send,
    options: [{ name: "name", type: "string", help: "A name; '' clears it", empty: true }],
  };
  assertEquals(parse(lenient, ["p1", "--name", ""]).opts.name, "");
  assertEquals(parse(lenient, ["p1", "--name="]).opts.name, "");
  // `--help` still shows the help.
  assertEquals(parse(send, ["p1", "--name", "", "--help"]).opts.help, true);
});
