/**
 * lib/hosts without SSH: reading `[hosts.NAME]`, `HOST:PANE`, the remote
 * command line, ssh's words, the host's answer, and where a link's files go.
 */

import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { parseConfig } from "../../../lib/config/config.ts";
import { hostConfig, hostNames } from "../../../lib/hosts/config.ts";
import { linkFiles } from "../../../lib/hosts/paths.ts";
import { parseRemoteInfo, parseVersion, skewLine } from "../../../lib/hosts/remote.ts";
import { onHost, paneRefText, parsePaneRef } from "../../../lib/hosts/resolve.ts";
import { masterArgs, remoteSkiffLine, sshWhy } from "../../../lib/hosts/ssh.ts";
import { ConnectionClosed } from "../../../lib/client/client.ts";
import { SkiffError } from "../../../lib/errors.ts";
import { VERSION } from "../../../lib/version.ts";

const config = (text: string) => parseConfig(text, "projects.toml");

Deno.test("hosts config: defaults, every key, and one line naming a wrong key", () => {
  const c = config(`
[hosts.gpu1]
ssh = "me@gpu1.lab"

[hosts."lab.2"]
ssh = "lab2"
skiff = "~/bin/skiff --quiet"
socket = "/run/user/1000/skiff/skiffd.sock"
ssh_options = ["-i", "~/.ssh/lab"]

[hosts.bad]
ssh = "x"
sokcet = "/x"
`);
  assertEquals(hostNames(c), ["gpu1", "lab.2", "bad"]);
  assertEquals(hostConfig(c, "gpu1"), {
    name: "gpu1",
    ssh: "me@gpu1.lab",
    skiff: "skiff",
    socket: null,
    sshOptions: [],
  });
  assertEquals(hostConfig(c, "lab.2").sshOptions, ["-i", "~/.ssh/lab"]);
  assertMatch(
    assertThrows(() => hostConfig(c, "bad")).message,
    /projects\.toml:13:1: unknown key 'sokcet' in \[hosts\.bad\]; did you mean 'socket'\?/,
  );
  const missing = assertThrows(() => hostConfig(c, "gpu9")) as SkiffError;
  assertEquals([missing.exit, missing.message], [
    "NOT_FOUND",
    "No host 'gpu9'. See 'skiff host ls'",
  ]);
  const relative = config(`[hosts.x]\nssh = "x"\nsocket = "run/skiffd.sock"\n`);
  assertMatch(assertThrows(() => hostConfig(relative, "x")).message, /absolute path on the host/);
  const dash = config(`[hosts.x]\nssh = "-oProxyCommand=x"\n`);
  assertMatch(assertThrows(() => hostConfig(dash, "x")).message, /is not an SSH destination/);
  const options = config(`[hosts.x]\nssh = "x"\nssh_options = "-i k"\n`);
  assertMatch(assertThrows(() => hostConfig(options, "x")).message, /must be a list of strings/);
});

Deno.test("HOST:PANE: the first colon ends the host; a ref without one is local", () => {
  assertEquals(parsePaneRef("reviewer"), { host: null, pane: "reviewer" });
  assertEquals(parsePaneRef("gpu1:reviewer"), { host: "gpu1", pane: "reviewer" });
  assertEquals(parsePaneRef("gpu1:api/worker"), { host: "gpu1", pane: "api/worker" });
  assertEquals(parsePaneRef("lab.2:p3"), { host: "lab.2", pane: "p3" });
  for (const bad of [":p3", "gpu1:", "a b:p3"]) {
    const error = assertThrows(() => parsePaneRef(bad)) as SkiffError;
    assertEquals(error.exit, "USAGE", bad);
  }
  assertEquals(paneRefText(null, "p3"), "p3");
  assertEquals(paneRefText("gpu1", "p3"), "gpu1:p3");
});

Deno.test("the remote command line: quoted words, a home path, the socket key", () => {
  const host = {
    name: "h",
    ssh: "h",
    skiff: "~/bin/skiff",
    socket: "/run/it's here/skiffd.sock",
    sshOptions: [],
  };
  assertEquals(
    remoteSkiffLine(host, ["host", "remote", "--json"]),
    `exec env SKIFF_SOCKET='/run/it'\\''s here/skiffd.sock' "$HOME"/bin/skiff host remote --json`,
  );
  assertEquals(
    remoteSkiffLine({ ...host, skiff: "deno run -A '/src/my skiff/main.ts'", socket: null }, [
      "--version",
    ]),
    `exec env deno run -A '/src/my skiff/main.ts' --version`,
  );
});

Deno.test("the master's command line keeps the person's options first and ends at --", () => {
  const args = masterArgs(
    { name: "h", ssh: "me@h", skiff: "skiff", socket: null, sshOptions: ["-F", "/cfg"] },
    "/run/x/h.ctl",
  );
  assertEquals(args.slice(0, 2), ["-F", "/cfg"]);
  assertEquals(args.slice(-2), ["--", "me@h"]);
  for (const option of ["BatchMode=yes", "ExitOnForwardFailure=yes", "ControlPersist=no"]) {
    assert(args.includes(option), option);
  }
  assert(args.some((a) => a.startsWith("ServerAliveInterval=")));
  assert(args.some((a) => a.startsWith("ConnectTimeout=")));
});

Deno.test("ssh's words: the last line that is not a warning", () => {
  assertEquals(
    sshWhy(
      "Warning: Permanently added '[127.0.0.1]:22' (ED25519) to the list of known hosts.\r\n" +
        "ssh: connect to host 127.0.0.1 port 1: Connection refused\r\n",
      "x",
    ),
    "ssh: connect to host 127.0.0.1 port 1: Connection refused",
  );
  assertEquals(
    sshWhy("Permission denied (publickey).\n", "x"),
    "ssh: Permission denied (publickey).",
  );
  assertEquals(sshWhy("", "no words"), "no words");
});

Deno.test("the host's answer, its version, and the one line of version skew", () => {
  const line = JSON.stringify({
    schema_version: 1,
    skiff_host: 1,
    version: "0.1.0",
    protocol: 1,
    daemon_version: "0.0.9",
    pid: 42,
    socket: "/s",
    started: true,
    agents: [{ id: "claude", label: "Claude Code", installed: null }],
  });
  const info = parseRemoteInfo(`some banner\n${line}\n`)!;
  assertEquals([info.daemon_version, info.socket, info.started], ["0.0.9", "/s", true]);
  assertEquals(parseRemoteInfo("Unknown command"), undefined);
  assertEquals(parseVersion("skiff 0.0.7\n"), "0.0.7");
  assertEquals(parseVersion('{"schema_version":1,"version":"1.2.3"}'), "1.2.3");
  assertMatch(
    skewLine("gpu1", info)!,
    new RegExp(
      `gpu1's skiffd runs Skiff 0\\.0\\.9 and this skiff ${VERSION.replaceAll(".", "\\.")}`,
    ),
  );
  assertEquals(skewLine("gpu1", { ...info, daemon_version: VERSION }), undefined);
});

Deno.test("errors from a host name it; a lost link is unreachable with the outcome unknown", () => {
  const missing = onHost(
    "gpu1",
    new SkiffError("No pane 'x'. See 'skiff ls'", { exit: "NOT_FOUND" }),
  );
  assert(missing instanceof SkiffError);
  assertEquals(missing.message, "gpu1: No pane 'x'. See 'skiff ls --all-hosts'");
  assertEquals([missing.exit, missing.details.host], ["NOT_FOUND", "gpu1"]);
  const lost = onHost("gpu1", new ConnectionClosed()) as SkiffError;
  assertEquals(lost.exit, "UNREACHABLE");
  assertMatch(lost.message, /link to gpu1 was lost during the request/);
});

Deno.test("a link's files sit beside the socket, or in a short folder when that is too deep", () => {
  const near = linkFiles("/run/user/1000/skiff/skiffd.sock", "gpu1");
  assertEquals(near.control, "/run/user/1000/skiff/skiffd.hosts/gpu1.ctl");
  assertEquals(near.socket, "/run/user/1000/skiff/skiffd.hosts/gpu1.sock");
  const deep = linkFiles(`/home/someone/${"very-deep/".repeat(8)}skiffd.sock`, "gpu1");
  assert(deep.control.length <= 83, deep.control);
  assertMatch(deep.dir, /skiff-.*\.hosts$/);
});
