// OpenAI Chat Completions (`POST …/chat/completions`), the protocol pi's `openai-completions`
// provider and most local model servers speak: a streamed answer is `chat.completion.chunk`
// events, text in `delta.content` pieces, a tool call in `delta.tool_calls` pieces, a last chunk
// with `finish_reason`, the usage when `stream_options.include_usage` asks for it, then `[DONE]`.
import type { ServerResponse } from "node:http";
import type { Dialect } from "./dialect.js";
import { sendEvent, startEvents } from "./sse.js";
import type { Reply } from "./turn.js";

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

interface ChatRequest {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
}

/** A message's text: a string, or the text parts of a list of parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      part?.type === "text" && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

let completions = 0;

/** Text streamed in a few pieces (word by word), as a real model's would be. */
const piecesOf = (text: string) => text.match(/\S*\s*/g)?.filter(Boolean) ?? [text];

export const openAiChat: Dialect = {
  name: "openai-chat",
  serves: (method, path) => method === "POST" && path.endsWith("/chat/completions"),

  turnOf(body) {
    const request = body as ChatRequest;
    if (typeof request?.model !== "string") throw new Error("no model named");
    if (!Array.isArray(request.messages) || request.messages.length === 0) throw new Error("no messages");
    const messages = (request.messages as ChatMessage[]).filter(
      (m) => m?.role !== "system" && m?.role !== "developer",
    );
    const last = messages.at(-1);
    const lastUser = messages.findLast((m) => m?.role === "user");
    const afterToolResult = last?.role === "tool";
    return {
      model: request.model,
      userText: textOf(lastUser?.content),
      afterToolResult,
      ...(afterToolResult ? { toolResult: textOf(last.content) } : {}),
      messageCount: messages.length,
    };
  },

  answer(reply: Reply, body, _path, response: ServerResponse) {
    const request = body as ChatRequest;
    const id = `chatcmpl-mock-${++completions}`;
    const base = { id, created: Math.floor(Date.now() / 1000), model: request.model };
    const toolCall =
      "toolCall" in reply
        ? {
            id: `call_mock_${completions}`,
            type: "function" as const,
            function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
          }
        : undefined;
    const finish = toolCall ? "tool_calls" : "stop";
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (request.stream !== true) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: "text" in reply ? reply.text : null,
                ...(toolCall ? { tool_calls: [toolCall] } : {}),
              },
              finish_reason: finish,
            },
          ],
          usage,
        }),
      );
      return;
    }
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      sendEvent(response, {
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      });
    startEvents(response);
    chunk({ role: "assistant", content: "" });
    if ("text" in reply) for (const piece of piecesOf(reply.text)) chunk({ content: piece });
    if (toolCall) {
      // The name first with empty arguments, then the arguments in two halves: a client must join them.
      const args = toolCall.function.arguments;
      const half = Math.ceil(args.length / 2);
      chunk({
        tool_calls: [{ index: 0, ...toolCall, function: { name: toolCall.function.name, arguments: "" } }],
      });
      for (const part of [args.slice(0, half), args.slice(half)])
        if (part) chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    }
    chunk({}, finish);
    if (request.stream_options?.include_usage === true)
      sendEvent(response, { ...base, object: "chat.completion.chunk", choices: [], usage });
    sendEvent(response, "[DONE]");
    response.end();
  },
};
