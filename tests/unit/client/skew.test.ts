import { assert, assertEquals } from "../../helpers/assert.ts";
import { compareVersions, daemonProtocolOf, protocolMismatch } from "../../../lib/client/skew.ts";
import { PROTOCOL_VERSION } from "../../../lib/version.ts";

Deno.test("compareVersions orders by number, part by part, and a pre-release before its release", () => {
  assert(compareVersions("0.2.10", "0.10.1") < 0);
  assert(compareVersions("1.0.0", "0.99.99") > 0);
  assertEquals(compareVersions("0.1.0", "0.1.0"), 0);
  assertEquals(compareVersions("v0.1", "0.1.0"), 0);
  assert(compareVersions("1.0.0-rc.1", "1.0.0") < 0);
  assert(compareVersions("1.0.0-rc.2", "1.0.0-rc.1") > 0);
});

Deno.test("a refusal is read from its details, or from the words every skiffd has used", () => {
  assertEquals(daemonProtocolOf("x", { protocol: 3, version: "1.2.3" }), {
    protocol: 3,
    version: "1.2.3",
  });
  assertEquals(
    daemonProtocolOf(
      "skiffd speaks protocol 1 (Skiff 0.1.0) but this client speaks 2. Run 'skiff daemon restart'",
    ),
    { protocol: 1, version: "0.1.0" },
  );
  assertEquals(daemonProtocolOf("something else"), undefined);
});

Deno.test("the mismatch says which side is older, with exit PROTOCOL", () => {
  const older = protocolMismatch("", { protocol: PROTOCOL_VERSION - 1, version: "0.0.1" });
  assertEquals(older.exit, "PROTOCOL");
  assertEquals(older.code, 18);
  assert(older.message.includes("older than this skiff"), older.message);
  assert(older.message.includes("'skiff daemon upgrade'"), older.message);
  const newer = protocolMismatch("", { protocol: PROTOCOL_VERSION + 1, version: "9.0.0" });
  assert(newer.message.includes("newer than this skiff"), newer.message);
  const unknown = protocolMismatch("skiffd said something");
  assertEquals(unknown.message, "skiffd said something");
  assertEquals(unknown.exit, "PROTOCOL");
});
