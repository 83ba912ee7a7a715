/**
 * skiffd and the watcher run apart from the login that starts them: through
 * `systemd-run --user --scope` when a user manager answers (stand-ins here
 * record what they are asked), with the desktop variables the manager has,
 * and with a session keyring of their own.
 *
 * @module
 */

import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { waitFor, withSkiff } from "../helpers/skiff.ts";

async function stub(dir: string, name: string, body: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, name), `#!/bin/sh\n${body}\n`);
  await Deno.chmod(join(dir, name), 0o755);
}

function environ(pid: number): Record<string, string> {
  const text = new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/environ`));
  return Object.fromEntries(
    text.split("\0").filter(Boolean).map((
      kv,
    ) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
}

Deno.test("with a user manager, skiffd and the watcher start in systemd scopes with its desktop variables", async () => {
  await withSkiff(async (skiff) => {
    const stubs = join(skiff.root, "stubs");
    const calls = join(skiff.root, "systemd-run.log");
    await stub(
      stubs,
      "systemctl",
      [
        '[ "$1 $2" = "--user show-environment" ] || exit 1',
        "echo DISPLAY=:9",
        "echo DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/test/bus",
        `echo XDG_RUNTIME_DIR=${skiff.root}/xdg`,
        "echo LANG=C.UTF-8",
      ].join("\n"),
    );
    // Records its arguments, then runs the command after `--`, as systemd-run --scope does.
    await stub(
      stubs,
      "systemd-run",
      `printf '%s\\n' "$*" >> '${calls}'\nwhile [ "$1" != "--" ]; do shift; done; shift; exec "$@"`,
    );
    skiff.env.PATH = `${stubs}:${skiff.env.PATH}`;
    skiff.env.WAYLAND_DISPLAY = "wayland-from-the-login";
    await skiff.ok(["daemon", "start"]);
    const runs = (await Deno.readTextFile(calls)).trim().split("\n");
    assertMatch(
      runs[0],
      /^--user --scope --quiet --collect --unit=skiffd-skiffd -- \S+ .*daemon run$/,
    );
    const pid = (await skiff.daemonPid())!;
    const env = environ(pid);
    assertEquals(env.DISPLAY, ":9");
    assertEquals(env.DBUS_SESSION_BUS_ADDRESS, "unix:path=/run/user/test/bus");
    assertEquals(env.XDG_RUNTIME_DIR, `${skiff.root}/xdg`);
    assertEquals(env.WAYLAND_DISPLAY, undefined, "the manager has none, so the login's is dropped");
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertMatch(log, /running in systemd scope skiffd-skiffd\.scope/);

    // The watcher, once the Skiff agent's session exists.
    await skiff.ok(["new", "--name", "skipper", "--", "bash", "--norc"]);
    await skiff.ok(["mark", "skipper", "skiff-agent=1"]);
    const watchRun = await waitFor("the watcher's systemd-run", async () => {
      const lines = (await Deno.readTextFile(calls)).trim().split("\n");
      return lines.find((l) => l.includes("--unit=skiff-watch-skiffd"));
    });
    assertMatch(
      watchRun,
      /^--user --scope --quiet --collect --unit=skiff-watch-skiffd -- \S+ .* watch$/,
    );
    const watchLog = await waitFor("the watcher's log", async () => {
      const text = await Deno.readTextFile(join(skiff.root, "run", "skiffd.watch.log")).catch(() =>
        ""
      );
      return text.includes("scope") ? text : undefined;
    });
    assertMatch(watchLog, /running in systemd scope skiff-watch-skiffd\.scope/);
  });
});

Deno.test("without a user manager they start without a scope and say so; each has its own session keyring", async () => {
  await withSkiff(async (skiff) => {
    const stubs = join(skiff.root, "stubs");
    await stub(stubs, "systemctl", "echo 'Failed to connect to bus' >&2; exit 1");
    await stub(stubs, "systemd-run", `echo called >> '${skiff.root}/systemd-run.log'; exit 1`);
    skiff.env.PATH = `${stubs}:${skiff.env.PATH}`;
    await skiff.ok(["new", "--name", "sh", "--", "bash", "--norc"]);
    const log = await Deno.readTextFile(join(skiff.root, "run", "skiffd.log"));
    assertMatch(log, /running without a scope: no systemd user manager answers/);
    assertMatch(log, /session keyring \d+ of its own, linked to the user keyring/);
    assert(!(await Deno.stat(join(skiff.root, "systemd-run.log")).catch(() => false)), "no scope");
    // A pane runs in skiffd's session keyring: not the test's, with the user keyring in it.
    const out = join(skiff.root, "keys.txt");
    await skiff.ok(["keys", "sh", `keyctl show @s > ${out} 2>&1`, "Enter"]);
    const theirs = await waitFor("keyctl in the pane", async () => {
      const text = await Deno.readTextFile(out).catch(() => "");
      return text.includes("keyring") ? text : undefined;
    });
    const mine = new TextDecoder().decode(
      (await new Deno.Command("keyctl", { args: ["show", "@s"] }).output()).stdout,
    );
    const id = (text: string) => /^\s*(\d+) .*keyring: /m.exec(text)?.[1];
    assert(id(theirs) !== undefined && id(theirs) !== id(mine), `${theirs}\n---\n${mine}`);
    assertMatch(theirs, new RegExp(`keyring: _uid\\.${Deno.uid()}`));
  });
});
