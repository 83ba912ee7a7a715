/**
 * Pure-HTTP checks of the fake model server: no agent CLI is needed.
 */
import { DEFAULT_REPLY, startFakeLlm } from "../fixtures/fake_llm_server.ts";

function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Parses an SSE body into its `data:` payloads. */
function sseData(body: string): Record<string, unknown>[] {
  return body.split(/\r?\n\r?\n/)
    .flatMap((block) => block.split(/\r?\n/))
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)));
}

const bashTool = {
  name: "Bash",
  description: "Run a shell command",
  input_schema: {
    type: "object",
    properties: { command: { type: "string" }, description: { type: "string" } },
    required: ["command"],
  },
};

async function anthropic(
  port: number,
  text: string,
  after: Record<string, unknown>[] = [],
): Promise<Record<string, unknown>[]> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "dummy" },
    body: JSON.stringify({
      model: "fake-model",
      stream: true,
      max_tokens: 100,
      tools: [bashTool],
      messages: [{ role: "user", content: [{ type: "text", text }] }, ...after],
    }),
  });
  assert(res.ok, `status ${res.status}`);
  assert(res.headers.get("content-type")?.includes("text/event-stream"), "not SSE");
  return sseData(await res.text());
}

Deno.test("fake LLM streams an Anthropic reply word by word", async () => {
  const llm = await startFakeLlm({ delayMs: 1 });
  try {
    const events = await anthropic(llm.port, "say hello");
    const types = events.map((e) => e.type);
    assert(types[0] === "message_start", `first event ${types[0]}`);
    assert(types.at(-1) === "message_stop", `last event ${types.at(-1)}`);
    const text = events
      .filter((e) => e.type === "content_block_delta")
      .map((e) => (e.delta as { text: string }).text)
      .join("");
    assert(text === DEFAULT_REPLY, `reply was ${JSON.stringify(text)}`);
    const deltas = types.filter((t) => t === "content_block_delta").length;
    assert(
      deltas === DEFAULT_REPLY.split(" ").length,
      `expected one delta per word, got ${deltas}`,
    );
    const rec = llm.requests()[0];
    assert(rec.kind === "anthropic" && rec.auth === "x-api-key", JSON.stringify(rec));
  } finally {
    await llm.close();
  }
});

Deno.test("fake LLM answers RUNTOOL with a call to the shell tool", async () => {
  const llm = await startFakeLlm({ delayMs: 1 });
  try {
    const events = await anthropic(llm.port, "please RUNTOOL now");
    const start = events.find((e) => e.type === "content_block_start");
    const block = start?.content_block as { type: string; name: string };
    assert(block?.type === "tool_use" && block.name === "Bash", JSON.stringify(start));
    const delta = events.find((e) => e.type === "content_block_delta")?.delta as {
      partial_json: string;
    };
    const input = JSON.parse(delta.partial_json);
    assert(typeof input.command === "string" && input.command.includes("echo"), delta.partial_json);
    const stop = events.find((e) => e.type === "message_delta")?.delta as { stop_reason: string };
    assert(stop.stop_reason === "tool_use", JSON.stringify(stop));
    assert(llm.requests()[0].toolCall === "Bash", "request record lacks the tool call");
  } finally {
    await llm.close();
  }
});

/** The command of the tool call in an answer, or null when it has none. */
function toolCommandOf(events: Record<string, unknown>[]): string | null {
  const delta = events.find((e) => e.type === "content_block_delta")?.delta as {
    partial_json?: string;
  };
  return delta?.partial_json ? JSON.parse(delta.partial_json).command : null;
}

Deno.test("fake LLM runs a tool script: each command after the previous one's result", async () => {
  const llm = await startFakeLlm({ delayMs: 1, toolScript: ["echo one", "echo two"] });
  try {
    const turn = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        {
          role: "assistant",
          content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: {} }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "ok" }] },
      ]).flat();
    assert(toolCommandOf(await anthropic(llm.port, "RUNTOOL go")) === "echo one", "first");
    assert(toolCommandOf(await anthropic(llm.port, "RUNTOOL go", turn(1))) === "echo two", "next");
    const last = await anthropic(llm.port, "RUNTOOL go", turn(2));
    assert(toolCommandOf(last) === null, "then the reply");
    assert(toolCommandOf(await anthropic(llm.port, "no trigger")) === null, "no trigger, no tool");
  } finally {
    await llm.close();
  }
});

Deno.test("fake LLM gives Codex an escalated exec_command on the responses API", async () => {
  const llm = await startFakeLlm({ delayMs: 1 });
  try {
    const res = await fetch(`http://127.0.0.1:${llm.port}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer dummy" },
      body: JSON.stringify({
        model: "fake-model",
        stream: true,
        tools: [{
          type: "function",
          name: "exec_command",
          parameters: {
            type: "object",
            properties: {
              cmd: { type: "string" },
              sandbox_permissions: { type: "string" },
              justification: { type: "string" },
            },
          },
        }],
        input: [{
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "RUNTOOL" }],
        }],
      }),
    });
    const events = sseData(await res.text());
    const done = events.find((e) => e.type === "response.output_item.done");
    const item = done?.item as { type: string; name: string; arguments: string };
    assert(item.type === "function_call" && item.name === "exec_command", JSON.stringify(item));
    const args = JSON.parse(item.arguments);
    assert(args.sandbox_permissions === "require_escalated", item.arguments);
    assert(events.at(-1)?.type === "response.completed", "stream did not complete");
  } finally {
    await llm.close();
  }
});
