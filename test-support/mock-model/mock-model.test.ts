// The mock model against a real client: pi's CLI in print mode, pointed at it through models.json,
// reads its streamed text and its tool call (and runs the tool, and sends the result back). What
// it refuses, it refuses with a status and a message a client can show. The other protocols meet
// their real clients in the real-agent suite (test-agents/); here, the shapes those clients rely on.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PI_CLI, useMockModel } from "../pi-tmux.js";
import { type MockModel, startMockModel } from "./index.js";

const models: MockModel[] = [];
afterEach(async () => {
  for (const model of models.splice(0)) await model.close();
});

async function started(...options: Parameters<typeof startMockModel>) {
  const model = await startMockModel(...options);
  models.push(model);
  return model;
}

/** `pi -p <prompt>` against `model`, in a fresh folder, with no session written. */
async function piPrint(model: MockModel, prompt: string) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "sr-mock-project-")));
  const args = useMockModel(process.env.PI_CODING_AGENT_DIR!, model.url);
  // stdin closed: with a pipe open there, print mode waits to read more of the prompt from it.
  const child = spawn(process.execPath, [PI_CLI, ...args, "--no-session", "-p", prompt], {
    cwd,
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise((resolve) => child.once("close", resolve));
  if (status !== 0) throw new Error(`pi -p exited with ${String(status)}: ${stderr}`);
  return stdout.trim();
}

describe("the mock model, OpenAI Chat Completions", () => {
  it("streams text that pi shows as its answer", async () => {
    const model = await started();
    expect(await piPrint(model, "how are you")).toBe("reply 1: how are you");
    expect(model.requests).toEqual([
      {
        path: "/v1/chat/completions",
        turn: {
          dialect: "openai-chat",
          model: "mock-1",
          userText: "how are you",
          afterToolResult: false,
          messageCount: 1,
        },
        reply: { text: "reply 1: how are you" },
      },
    ]);
  });

  it("calls a tool when asked: pi runs it, sends its result, and shows the answer after it", async () => {
    const model = await started();
    const answer = await piPrint(model, 'tool: bash {"command":"echo from-the-tool"}');
    expect(answer).toBe("done: from-the-tool");
    expect(model.requests.map((r) => r.reply)).toEqual([
      { toolCall: { name: "bash", arguments: { command: "echo from-the-tool" } } },
      { text: "done: from-the-tool\n" },
    ]);
    expect(model.requests[1]!.turn).toMatchObject({ afterToolResult: true, toolResult: "from-the-tool\n" });
  });

  it("answers as a test's responder says, and without a stream as one JSON completion", async () => {
    const model = await started({
      responder: (turn) => ({ text: `${turn.model} heard ${turn.messageCount}` }),
    });
    const response = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        model: "m",
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: [{ type: "text", text: "hi" }] },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      object: string;
      choices: Array<{ message: unknown; finish_reason: string }>;
    };
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0]).toMatchObject({
      message: { role: "assistant", content: "m heard 1" },
      finish_reason: "stop",
    });
    expect(await model.answered(1, 1000)).toHaveLength(1);
  });

  it("refuses what it cannot answer, saying why, and a wait for a request never made says how many came", async () => {
    const model = await started();
    const ask = (path: string, body: string) =>
      fetch(`${model.url}${path}`, { method: "POST", body }).then(
        async (r) => [r.status, await r.json()] as const,
      );
    expect(await ask("/v1/nothing", "{}")).toEqual([
      404,
      { error: { message: "no dialect of the mock model serves this", type: "mock_model_error" } },
    ]);
    expect((await ask("/v1/chat/completions", "{}"))[0]).toBe(400);
    expect((await ask("/v1/chat/completions", "not json"))[0]).toBe(400);
    expect(model.refused).toEqual([
      "POST /v1/nothing: no dialect of the mock model serves this",
      "POST /v1/chat/completions: openai-chat: no model named",
      expect.stringMatching(/^POST \/v1\/chat\/completions: .*JSON/),
    ]);
    expect(model.requests).toEqual([]);
    await expect(model.answered(1, 50)).rejects.toThrow(/answered 0 of 1 requests in 50 ms \(refused: /);
  });
});

/** The `data:` payloads of a server-sent event stream, parsed (`[DONE]` left out). */
async function events(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return [...text.matchAll(/^data: (.*)$/gm)]
    .map((m) => m[1]!)
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}

const post = (model: MockModel, path: string, body: unknown) =>
  fetch(`${model.url}${path}`, { method: "POST", body: JSON.stringify(body) });

describe("the mock model, the other agents' protocols", () => {
  it("Anthropic Messages: the prompt beside Claude Code's reminders, a tool call's input streamed in pieces", async () => {
    const model = await started();
    const response = await post(model, "/v1/messages", {
      model: "claude-x",
      stream: true,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "<system-reminder>ctx</system-reminder>" },
            { type: "text", text: 'tool: Write {"file_path":"/x","content":"y"}' },
          ],
        },
        { role: "system", content: "more context" },
      ],
    });
    const sent = await events(response);
    expect(sent.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const input = sent.flatMap((e) => (e.delta as { partial_json?: string })?.partial_json ?? []).join("");
    expect(JSON.parse(input)).toEqual({ file_path: "/x", content: "y" });
    expect(sent[5]).toMatchObject({ delta: { stop_reason: "tool_use" } });
    expect(model.requests[0]!.turn).toMatchObject({
      userText: 'tool: Write {"file_path":"/x","content":"y"}',
      messageCount: 1,
    });
  });

  it("OpenAI Responses: text ends with response.completed, a namespaced tool is named apart from its namespace", async () => {
    const model = await started();
    const ask = (text: string) =>
      post(model, "/v1/responses", {
        model: "m",
        stream: true,
        input: [
          { type: "message", role: "developer", content: [{ type: "input_text", text: "rules" }] },
          {
            type: "message",
            role: "user",
            content: [{ type: "input_text", text: "<environment_context>…</environment_context>" }],
          },
          { type: "message", role: "user", content: [{ type: "input_text", text }] },
        ],
      }).then(events);
    const text = await ask("hello");
    expect(text.at(-1)).toMatchObject({
      type: "response.completed",
      response: { usage: { total_tokens: 15 } },
    });
    expect(text.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("")).toBe(
      "reply 1: hello",
    );
    const call = await ask('tool: multi_agent_v1/spawn_agent {"message":"go"}');
    expect(call.find((e) => e.type === "response.output_item.done")).toMatchObject({
      item: {
        type: "function_call",
        namespace: "multi_agent_v1",
        name: "spawn_agent",
        arguments: '{"message":"go"}',
      },
    });
  });

  it("Gemini: a structured side question gets JSON of its schema's shape; a stream's text comes in pieces", async () => {
    const model = await started();
    const schema = {
      type: "OBJECT",
      properties: { complexity_reasoning: { type: "STRING" }, complexity_score: { type: "INTEGER" } },
    };
    const side = await post(model, "/v1beta/models/flash-lite:generateContent", {
      contents: [{ role: "user", parts: [{ text: "route this" }] }],
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema },
    }).then(
      (r) => r.json() as Promise<{ candidates: Array<{ content: { parts: Array<{ text: string }> } }> }>,
    );
    expect(JSON.parse(side.candidates[0]!.content.parts[0]!.text)).toEqual({
      complexity_reasoning: "mock",
      complexity_score: 1,
    });
    const next = await post(model, "/v1beta/models/flash-lite:generateContent", {
      contents: [{ role: "user", parts: [{ text: "who speaks" }] }],
      generationConfig: {
        responseJsonSchema: {
          type: "object",
          properties: { next_speaker: { type: "string", enum: ["user", "model"] } },
        },
      },
    }).then(
      (r) => r.json() as Promise<{ candidates: Array<{ content: { parts: Array<{ text: string }> } }> }>,
    );
    expect(JSON.parse(next.candidates[0]!.content.parts[0]!.text)).toEqual({ next_speaker: "user" });
    const streamed = await events(
      await post(model, "/v1beta/models/flash:streamGenerateContent", {
        contents: [
          { role: "user", parts: [{ text: "<session_context>…</session_context>" }, { text: "hi there" }] },
        ],
      }),
    );
    const parts = streamed.map(
      (e) =>
        (e as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0]!.content
          .parts[0]!.text,
    );
    expect(parts.length).toBe(2);
    expect(parts.join("")).toBe("reply 3: hi there");
    expect(streamed.at(-1)).toMatchObject({ candidates: [{ finishReason: "STOP" }] });
  });
});
