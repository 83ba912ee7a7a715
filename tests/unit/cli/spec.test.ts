import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { parse } from "../../../lib/cli/parse.ts";
import { defineCommand } from "../../../lib/cli/spec.ts";
import { renderHelp } from "../../../lib/cli/help.ts";
import { exitTable } from "../../../lib/cli/exits.ts";
import { SkiffError } from "../../../lib/errors.ts";

const seen: unknown[] = [];

const add = defineCommand({
  name: "add",
  summary: "Add",
  args: [{ name: "PANE", required: true }, { name: "MORE", variadic: true }],
  options: [
    { name: "task", type: "string", help: "Text", required: true },
    { name: "count", type: "number", help: "How many" },
    { name: "send", type: "boolean", help: "Send", requires: ["pane"] },
    { name: "pane", type: "string", help: "Pane" },
    { name: "quiet", type: "boolean", help: "Quiet", conflicts: ["loud"] },
    { name: "loud", type: "boolean", help: "Loud" },
    { name: "until", type: "string", help: "State", choices: ["idle", "working"] },
    { name: "env", type: "list", help: "K=V" },
    { name: "push", type: "boolean", value: "REMOTE", inlineValue: true, help: "Push" },
  ],
  exits: ["NOT_FOUND", ["CONFLICT", "The name is taken"]],
  run: (ctx) => {
    // These lines are checked by `deno check`: each value has its spec's type.
    const task: string = ctx.opts.task;
    const count: number | undefined = ctx.opts.count;
    const send: boolean = ctx.opts.send;
    const env: string[] = ctx.opts.env;
    const push: boolean | string = ctx.opts.push;
    // @ts-expect-error: a flag that may carry a value is not only a boolean.
    const flag: boolean = ctx.opts.push;
    const pane: string = ctx.args.PANE;
    const more: string[] = ctx.args.MORE;
    // @ts-expect-error: a number option is not a string.
    const wrong: string = ctx.opts.count;
    // @ts-expect-error: there is no such option.
    void ctx.opts.nothing;
    seen.push({ task, count, send, env, push, flag, pane, more, wrong });
  },
});

function usage(argv: string[], pattern: RegExp): void {
  const error = assertThrows(() => parse(add, argv, { prefix: ["add"] }), pattern);
  assert(error instanceof SkiffError && error.exit === "USAGE", `expected USAGE, got ${error}`);
}

Deno.test("defineCommand: run gets typed options and arguments, with defaults filled in", async () => {
  const parsed = parse(add, ["p1", "--task", "x"]);
  assertEquals(parsed.opts, {
    task: "x",
    send: false,
    quiet: false,
    loud: false,
    env: [],
    push: false,
    json: false,
    help: false,
  });
  await parsed.command.run!({ ...parsed, json: false, out: undefined as never });
  assertEquals((seen.at(-1) as { pane: string }).pane, "p1");
});

Deno.test("parse: a required option, conflicts, requires and choices are checked", () => {
  usage(["p1"], /^Option '--task' is required\. See 'skiff add --help'\.$/);
  usage(["p1", "--task", "x", "--send"], /^--send needs --pane\./);
  usage(["p1", "--task", "x", "--quiet", "--loud"], /^Give --quiet or --loud, not both\./);
  usage(
    ["p1", "--task", "x", "--until", "done"],
    /^Bad value 'done' for --until: use idle or working\./,
  );
  assertEquals(parse(add, ["p1", "--task", "x", "--send", "--pane", "p2"]).opts.send, true);
  assertEquals(parse(add, ["p1", "--task", "x", "--until", "idle"]).opts.until, "idle");
});

Deno.test("parse: --help skips the checks, so help always shows", () => {
  assertEquals(parse(add, ["--help"]).opts.help, true);
});

Deno.test("exits: named once, with the command's own meaning where it has one", () => {
  assertEquals(exitTable(["NOT_FOUND", ["CONFLICT", "The name is taken"]]), [
    [0, "Success"],
    [1, "Internal error"],
    [2, "Bad usage or input; nothing was changed"],
    [3, "No such pane, session, project or task"],
    [5, "The name is taken"],
  ]);
  const help = renderHelp(add, ["add"]);
  assert(help.includes("  5  The name is taken"), help);
  assert(help.includes("--task VALUE (required)"), help);
  assert(help.includes("State (idle, working)"), help);
  assert(/\n {6}--push\[=REMOTE\] +Push\n/.test(help), help);
  assert(/\n {6}--send +Send\n/.test(help), "a plain flag shows no value");
});
