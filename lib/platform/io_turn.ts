/**
 * A turn of the event loop in microseconds, in which it still polls sockets.
 *
 * Work split into slices must let the event loop in between, so that
 * requests on sockets are answered. A timer does (the loop polls sockets
 * while it waits for one), but the shortest costs about 2 ms in Deno, a
 * third of a 5 ms slice spent idle. A chain of immediates or of messages
 * costs microseconds but starves sockets: the loop never stops to poll them.
 * A read on a socket does both: the loop polls every socket and pipe to
 * complete it. So a byte goes through a pair of connected Unix sockets of
 * this process, and the work goes on when it arrives, after about 12 µs
 * with every ready socket handled.
 *
 * @module
 */

/** The connected pair, `null` while it is made or when it could not be. */
let pair: { send: Deno.Conn; receive: Deno.Conn } | null = null;
let making = false;
let failed = false;
/** Callbacks waiting for the turn in flight. */
let waiting: (() => void)[] = [];
let inFlight = false;
const byte = new Uint8Array(1);
const sink = new Uint8Array(256);

async function makePair(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skiff-turn-" });
  const path = `${dir}/turn.sock`;
  try {
    const listener = Deno.listen({ transport: "unix", path });
    try {
      const [send, receive] = await Promise.all([
        Deno.connect({ transport: "unix", path }),
        listener.accept(),
      ]);
      pair = { send, receive };
    } finally {
      listener.close();
    }
  } finally {
    // The connection no longer needs its name.
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function turn(): Promise<void> {
  inFlight = true;
  try {
    await pair!.send.write(byte);
    await pair!.receive.read(sink);
  } catch {
    failed = true;
  }
  inFlight = false;
  const run = waiting;
  waiting = [];
  for (const callback of run) callback();
}

/**
 * Runs `callback` after the event loop has had a turn that polled its
 * sockets and pipes. Until the socket pair is made (or where it cannot be),
 * a timer gives the turn.
 */
export function nextIoTurn(callback: () => void): void {
  if (failed) {
    setTimeout(callback, 0);
    return;
  }
  if (!pair) {
    if (!making) {
      making = true;
      makePair().catch(() => failed = true);
    }
    setTimeout(callback, 0);
    return;
  }
  waiting.push(callback);
  if (!inFlight) turn();
}
