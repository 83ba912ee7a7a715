import { assert, assertEquals } from "../../helpers/assert.ts";
import { nextIoTurn } from "../../../lib/platform/io_turn.ts";

/** Keeps the thread busy for `ms`, as parsing a slice of output does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Working.
  }
}

/** A program that sends a byte to the socket at `path` and prints the reply. */
function clientOf(path: string): Deno.ChildProcess {
  const code = `const c = await Deno.connect({ transport: "unix", path: ${JSON.stringify(path)} });
await c.write(new Uint8Array([42]));
const b = new Uint8Array(8);
const n = await c.read(b);
console.log(b[0], n);`;
  return new Deno.Command(Deno.execPath(), { args: ["eval", code], stdout: "piped" }).spawn();
}

Deno.test({
  name: "nextIoTurn: a chain of busy turns still lets another process's request be answered",
  // The socket pair stays open for the process, as in skiffd.
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    // The first turns come from timers while the socket pair is made.
    for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => nextIoTurn(resolve));
    const dir = await Deno.makeTempDir({ prefix: "skiff-io-turn-" });
    const path = `${dir}/echo.sock`;
    const listener = Deno.listen({ transport: "unix", path });
    let answered = false;
    const served = (async () => {
      const conn = await listener.accept();
      const buffer = new Uint8Array(8);
      const n = await conn.read(buffer);
      await conn.write(buffer.subarray(0, n ?? 0));
      answered = true;
      conn.close();
    })();
    // Turns until the request was answered, or until a limit only starvation reaches:
    // a chain that never let the loop poll sockets would run to it first.
    const limit = 5000;
    let turns = 0;
    let turnsWhenAnswered = -1;
    const chainEnded = new Promise<void>((resolve) => {
      const turn = () => {
        busy(2);
        turns++;
        if (answered && turnsWhenAnswered < 0) turnsWhenAnswered = turns;
        if (answered || turns >= limit) resolve();
        else nextIoTurn(turn);
      };
      nextIoTurn(turn);
    });
    const client = clientOf(path);
    await chainEnded;
    await served;
    const output = new TextDecoder().decode((await client.output()).stdout).trim();
    listener.close();
    await Deno.remove(dir, { recursive: true });
    assertEquals(output, "42 1");
    assert(turnsWhenAnswered > 0, `answered only after the chain gave up (${turns} turns)`);
  },
});

Deno.test("nextIoTurn: every callback runs once, in order", async () => {
  const ran: number[] = [];
  await new Promise<void>((resolve) => {
    for (let i = 0; i < 5; i++) {
      nextIoTurn(() => {
        ran.push(i);
        if (ran.length === 5) resolve();
      });
    }
  });
  assertEquals(ran, [0, 1, 2, 3, 4]);
});
