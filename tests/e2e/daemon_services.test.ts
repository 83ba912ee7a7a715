/**
 * skiffd answers on its socket before it has restored its panes, and starts
 * its services (the app, the hosts' links) after that. A command that needs
 * a service in that time waits for it: it never meets a service that has
 * not started (that was an internal error, exit 1, in a CI run).
 */

import { dirname } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { withSkiff } from "../helpers/skiff.ts";

/** A loopback port where nothing listens: ssh to it is refused at once. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

Deno.test("a host command that starts skiffd before its services have started gets the host's answer", async () => {
  await withSkiff(async (skiff) => {
    await Deno.mkdir(dirname(skiff.configFile), { recursive: true });
    await Deno.writeTextFile(
      skiff.configFile,
      [
        "[hosts.far]",
        'ssh = "127.0.0.1"',
        `ssh_options = ["-p", "${closedPort()}", "-o", "BatchMode=yes"]`,
        "",
      ].join("\n"),
    );
    // This command starts skiffd and asks for the link as soon as skiffd answers: well
    // before its services start, which the switch holds back by 1.5 s.
    skiff.env.SKIFF_FAULT_SERVICES_LATE = "1500";
    const result = await skiff.run(["new", "--host", "far", "--name", "x", "--", "sh"]);
    assertEquals(result.code, 17, result.stderr);
    assertMatch(result.stderr, /^skiff: Host far is unreachable: .*Connection refused.*\n$/);
    const log = await Deno.readTextFile(`${dirname(skiff.socket)}/skiffd.log`);
    assertMatch(log, /starting the services 1500 ms late[^]*started the hosts service/);
    const hosts = await skiff.json<{ hosts: { name: string; link: string }[] }>(["host", "ls"]);
    assertEquals(hosts.hosts.map((h) => [h.name, h.link]), [["far", "unreachable"]]);
  });
});
