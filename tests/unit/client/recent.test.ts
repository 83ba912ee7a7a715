import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { mostRecentPane } from "../../../lib/client/recent.ts";
import { attachEndLine, pickedNotice, reattachNotice } from "../../../lib/client/attach.ts";
import { pagerCommand } from "../../../lib/client/history_pager.ts";
import { SkiffError } from "../../../lib/errors.ts";
import { samplePane } from "../../helpers/pane_info.ts";

const pane = samplePane;

Deno.test("mostRecentPane: the running pane used last, else the newest running pane", () => {
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const panes = [
    pane("p1", { created: t(1), used: t(30) }),
    pane("p2", { created: t(2), used: t(50), status: "exited" }),
    pane("p3", { created: t(3), used: t(40) }),
    pane("p4", { created: t(4) }),
  ];
  assertEquals(mostRecentPane(panes), { pane: panes[2], why: "used" });
  const unused = [
    pane("p1", { created: t(1) }),
    pane("p9", { created: t(5) }),
    pane("p3", { created: t(3) }),
  ];
  assertEquals(mostRecentPane(unused), { pane: unused[1], why: "newest" });
  // Made in the same millisecond: the later id is the newer.
  const twins = [pane("p10", { created: t(1) }), pane("p9", { created: t(1) })];
  assertEquals(mostRecentPane(twins).pane.id, "p10");
});

Deno.test("mostRecentPane: no running pane is exit 3 with one line", () => {
  const none = assertThrows(() => mostRecentPane([])) as SkiffError;
  assertEquals(none.message, "No panes to attach to; 'skiff new' starts one");
  assertEquals(none instanceof SkiffError && none.exit, "NOT_FOUND");
  const exited = assertThrows(() =>
    mostRecentPane([pane("p1", { status: "exited" }), pane("p2", { status: "exited" })])
  );
  assertEquals(
    exited.message,
    "No running pane to attach to (2 exited; 'skiff ls' lists them); 'skiff new' starts one",
  );
});

Deno.test("attach lines: the end, a reattach to a new process, and the pane chosen", () => {
  const web = pane("p1", { name: "web" });
  assertEquals(
    attachEndLine({ reason: "detached", pane: "p1", name: "web" }),
    "[detached from web (p1); 'skiff attach web' attaches again]",
  );
  assertEquals(
    attachEndLine({ reason: "detached", pane: "p1", name: "web" }, "skiff skipper"),
    "[detached from web (p1); 'skiff skipper' attaches again]",
  );
  assertEquals(attachEndLine({ reason: "lost", pane: "p1", name: "web" }), "[lost skiffd]");
  assertEquals(
    attachEndLine({ reason: "lost", pane: "p1", name: "web", unsent: 4 }),
    "[lost skiffd; 4 bytes typed while skiffd was away were not sent]",
  );
  assertEquals(reattachNotice(web, { why: "reload", newProcess: false, refused: 0 }), undefined);
  assertEquals(
    reattachNotice(web, { why: "restart", newProcess: true, refused: 0 }),
    "skiffd restarted: web (p1) is a new shell",
  );
  assertEquals(
    reattachNotice(web, { why: "lost", newProcess: true, refused: 1 }),
    "skiffd came back: web (p1) is a new shell; 1 byte typed meanwhile was not sent",
  );
  assertEquals(
    reattachNotice({ ...web, resumed: "claude" }, {
      why: "restart",
      newProcess: true,
      refused: 12,
    }),
    "skiffd restarted: web (p1) runs a new process; claude resumed its conversation; 12 bytes typed meanwhile were not sent",
  );
  assertEquals(pickedNotice(web, "used"), "attached to web (p1), the pane used last");
  assertEquals(
    pickedNotice(web, "newest"),
    "attached to web (p1), the newest pane (none was used yet)",
  );
});

Deno.test("pagerCommand: $PAGER through the shell, else less with a prompt; LESS only when unset", () => {
  const env = (vars: Record<string, string>) => ({ get: (name: string) => vars[name] });
  assertEquals(pagerCommand("History of web.1 (p1)", env({})), {
    argv: ["less", "-PsHistory of web\\.1 (p1)?e (END)., q returns to the pane"],
    env: { LESS: "-R +G" },
  });
  assertEquals(pagerCommand("H", env({ PAGER: "most -s", LESS: "X" })), {
    argv: ["sh", "-c", "most -s"],
    env: {},
  });
  assertEquals(pagerCommand("H", env({ PAGER: " " })).argv[0], "less");
});
