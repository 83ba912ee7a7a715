/**
 * A helper process for `concurrency.test.ts`: it waits for a "go" line on
 * stdin, then opens the ledger and adds tasks, each in its own transaction.
 *
 * Usage: `deno run -A concurrent_adder.ts LEDGER_PATH COUNT NAME`
 *
 * It prints "ready" when it can start, and at the end one JSON line with the
 * uids and ids it added. On a failure it prints the error to stderr and exits 1.
 *
 * @module
 */

import { openLedger } from "../../../lib/ledger/mod.ts";

const [path, countText, name] = Deno.args;
const count = Number(countText);
const encoder = new TextEncoder();

console.log("ready");
const reader = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
let input = "";
while (!input.includes("\n")) {
  const { value, done } = await reader.read();
  if (done) break;
  input += value;
}
reader.releaseLock();
if (input.trim() !== "go") {
  Deno.stderr.writeSync(encoder.encode(`expected "go", got ${JSON.stringify(input)}\n`));
  Deno.exit(2);
}
const added: { id: number; uid: string }[] = [];
let step = "open";
let imported: number | null = null;
try {
  const ledger = openLedger(path);
  imported = ledger.imported?.rows ?? null;
  for (let i = 0; i < count; i++) {
    step = `add ${i}`;
    const row = ledger.add({
      task: `${name} task ${i}`,
      pane: { id: `p${name}`, name, generation: i },
    });
    added.push({ id: row.id, uid: row.uid });
  }
  ledger.close();
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.stack : "";
  Deno.stderr.writeSync(encoder.encode(`${step}: ${(error as Error).stack}\n${cause}\n`));
  Deno.exit(1);
}
console.log(JSON.stringify({ name, added, imported }));
