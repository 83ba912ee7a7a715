/**
 * The command table in cmd/mod.ts lists each command without loading it;
 * these tests keep it in step with each command's own spec.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { COMMANDS } from "../../../cmd/loaders.ts";
import { renderHelp } from "../../../lib/cli/help.ts";
import type { CommandSpec } from "../../../lib/cli/spec.ts";

function* walk(spec: CommandSpec, path: string[]): Generator<[CommandSpec, string[]]> {
  yield [spec, path];
  for (const sub of spec.subcommands ?? []) yield* walk(sub, [...path, sub.name]);
}

Deno.test("commands: the lazy table agrees with each command's spec", async () => {
  for (const entry of COMMANDS) {
    const spec = await entry.load();
    assertEquals(spec.name, entry.name, `name of ${entry.name}`);
    assertEquals(spec.summary, entry.summary, `summary of ${entry.name}`);
    assertEquals([...(spec.aliases ?? [])], [...(entry.aliases ?? [])], `aliases of ${entry.name}`);
  }
});

Deno.test("commands: names are unique, and each command or group renders its help", async () => {
  const words = COMMANDS.flatMap((e) => [e.name, ...(e.aliases ?? [])]);
  assertEquals(new Set(words).size, words.length, `duplicate command words: ${words}`);
  for (const entry of COMMANDS) {
    for (const [spec, path] of walk(await entry.load(), [entry.name])) {
      assert(!!spec.run || !!spec.subcommands, `${path.join(" ")} needs run or subcommands`);
      if (spec.run && spec.subcommands) {
        assert(!spec.args?.length, `${path.join(" ")} runs on its own, so takes no arguments`);
      }
      const help = renderHelp(spec, path);
      assert(help.startsWith(`Usage: skiff ${path.join(" ")}`), help);
      const subs = (spec.subcommands ?? []).flatMap((s) => [s.name, ...(s.aliases ?? [])]);
      assertEquals(new Set(subs).size, subs.length, `duplicate subcommands in ${path}`);
      const options = (spec.options ?? []).map((o) => o.name);
      assertEquals(new Set(options).size, options.length, `duplicate options in ${path}`);
      for (const option of spec.options ?? []) {
        for (const other of [...(option.conflicts ?? []), ...(option.requires ?? [])]) {
          assert(options.includes(other), `${path.join(" ")} --${option.name} names --${other}`);
        }
      }
    }
  }
});
