// Anthropic Messages (`POST …/v1/messages`), which Claude Code speaks: a streamed answer is the
// events `message_start`, then per content block `content_block_start`, its deltas (`text_delta`
// pieces, or a tool call's input as `input_json_delta` pieces) and `content_block_stop`, then
// `message_delta` with the stop reason and `message_stop`. `…/messages/count_tokens` gets a count.
import type { ServerResponse } from "node:http";
import type { Dialect } from "./dialect.js";
import { sendEvent, startEvents } from "./sse.js";
import type { Reply } from "./turn.js";

interface Block {
  type?: unknown;
  text?: unknown;
  content?: unknown;
}

interface Message {
  role?: unknown;
  content?: unknown;
}

interface MessagesRequest {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
}

const blocksOf = (content: unknown): Block[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];

/**
 * What the person typed in a user message: its last text block that is not one of the
 * `<system-reminder>` blocks (context, skills, dates) Claude Code puts beside the prompt.
 */
function promptOf(message: Message | undefined): string {
  const texts = blocksOf(message?.content).flatMap((b) =>
    b?.type === "text" && typeof b.text === "string" && !b.text.trimStart().startsWith("<system-reminder>")
      ? [b.text]
      : [],
  );
  return texts.at(-1) ?? "";
}

/** A tool result's text: a string, or its text blocks. */
const resultText = (block: Block) =>
  typeof block.content === "string"
    ? block.content
    : blocksOf(block.content)
        .map((b) => (typeof b?.text === "string" ? b.text : ""))
        .join("");

let messages = 0;

/** Text streamed in a few pieces (word by word), as a real model's would be. */
const piecesOf = (text: string) => text.match(/\S*\s*/g)?.filter(Boolean) ?? [text];

export const anthropicMessages: Dialect = {
  name: "anthropic-messages",
  serves: (method, path) =>
    method === "POST" && (path.endsWith("/v1/messages") || path.endsWith("/v1/messages/count_tokens")),

  turnOf(body, path) {
    const request = body as MessagesRequest;
    if (typeof request?.model !== "string") throw new Error("no model named");
    if (!Array.isArray(request.messages) || request.messages.length === 0) throw new Error("no messages");
    // Claude Code also sends context as `system` messages among them: not the conversation's.
    const all = (request.messages as Message[]).filter((m) => m?.role === "user" || m?.role === "assistant");
    const last = all.at(-1);
    const results =
      last?.role === "user" ? blocksOf(last.content).filter((b) => b?.type === "tool_result") : [];
    const afterToolResult = results.length > 0;
    // After a tool's result, the prompt that asked for it; else the latest message's own (empty for
    // a message of reminders only, e.g. Claude's notice that a background agent finished).
    const lastPrompt = afterToolResult ? all.findLast((m) => m?.role === "user" && promptOf(m) !== "") : last;
    return {
      model: path.endsWith("/count_tokens") ? `${request.model} (count)` : request.model,
      userText: promptOf(lastPrompt),
      afterToolResult,
      ...(afterToolResult ? { toolResult: results.map(resultText).join("\n") } : {}),
      messageCount: all.length,
    };
  },

  answer(reply: Reply, body, path, response: ServerResponse) {
    const request = body as MessagesRequest;
    if (path.endsWith("/count_tokens")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    const id = `msg_mock_${++messages}`;
    const block =
      "toolCall" in reply
        ? {
            type: "tool_use" as const,
            id: `toolu_mock_${messages}`,
            name: reply.toolCall.name,
            input: reply.toolCall.arguments,
          }
        : { type: "text" as const, text: reply.text };
    const stopReason = block.type === "tool_use" ? "tool_use" : "end_turn";
    const usage = { input_tokens: 10, output_tokens: 5 };
    const message = { id, type: "message", role: "assistant", model: request.model };
    if (request.stream !== true) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ ...message, content: [block], stop_reason: stopReason, stop_sequence: null, usage }),
      );
      return;
    }
    const event = (type: string, data: object) => sendEvent(response, { type, ...data }, type);
    startEvents(response);
    event("message_start", {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    if (block.type === "text") {
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
      for (const piece of piecesOf(block.text))
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } });
    } else {
      // The input in two halves of its JSON: a client must join them.
      event("content_block_start", { index: 0, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, half), json.slice(half)])
        event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: part } });
    }
    event("content_block_stop", { index: 0 });
    event("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    });
    event("message_stop", {});
    response.end();
  },
};
