// OpenAI Responses (`POST …/responses`), which Codex speaks (`wire_api = "responses"`): the input
// is a list of items (messages with `input_text` parts, `function_call`s and their
// `function_call_output`s); a streamed answer is `response.created`, then per output item
// `response.output_item.added`, its deltas (`response.output_text.delta`) and
// `response.output_item.done` carrying the whole item, then `response.completed` with the usage
// (Codex fails a turn whose stream ends without it).
import type { ServerResponse } from "node:http";
import type { Dialect } from "./dialect.js";
import { sendEvent, startEvents } from "./sse.js";
import type { Reply } from "./turn.js";

interface Item {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  output?: unknown;
}

interface ResponsesRequest {
  model?: unknown;
  input?: unknown;
  stream?: unknown;
}

/** The text parts of a message item (`input_text`, `output_text`), or a plain string. */
function textOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: { text?: unknown }) => (typeof part?.text === "string" ? [part.text] : []));
}

/**
 * What the person typed: the last text of a user message that is not one of the context blocks
 * Codex sends as user messages too (`<environment_context>`, `<user_instructions>`, AGENTS.md…).
 */
const promptOf = (item: Item | undefined) =>
  textOf(item?.content)
    .filter((text) => !text.trimStart().startsWith("<") && !text.startsWith("# AGENTS.md"))
    .at(-1) ?? "";

/** A function call's output as text: a string, or the text of its content items. */
const outputOf = (item: Item) =>
  typeof item.output === "string" ? item.output : textOf(item.output).join("");

let responses = 0;

/** `ns/name` as the item names a namespace's function; a plain name as it is. */
function namedCall(name: string): { name: string; namespace?: string } {
  const slash = name.indexOf("/");
  return slash < 0 ? { name } : { namespace: name.slice(0, slash), name: name.slice(slash + 1) };
}

/** Text streamed in a few pieces (word by word), as a real model's would be. */
const piecesOf = (text: string) => text.match(/\S*\s*/g)?.filter(Boolean) ?? [text];

export const openAiResponses: Dialect = {
  name: "openai-responses",
  serves: (method, path) => method === "POST" && path.endsWith("/responses"),

  turnOf(body) {
    const request = body as ResponsesRequest;
    if (typeof request?.model !== "string") throw new Error("no model named");
    if (!Array.isArray(request.input) || request.input.length === 0) throw new Error("no input");
    const items = (request.input as Item[]).filter(
      (item) => item?.role !== "developer" && item?.role !== "system",
    );
    const last = items.at(-1);
    const afterToolResult = last?.type === "function_call_output" || last?.type === "custom_tool_call_output";
    // After a tool's result, the prompt that asked for it; else the latest item's own (empty for a
    // context block alone, e.g. Codex's notice that a subagent finished).
    const lastPrompt = afterToolResult
      ? items.findLast((item) => item?.role === "user" && promptOf(item) !== "")
      : last;
    return {
      model: request.model,
      userText: promptOf(lastPrompt),
      afterToolResult,
      ...(afterToolResult ? { toolResult: outputOf(last!) } : {}),
      messageCount: items.length,
    };
  },

  answer(reply: Reply, body, _path, response: ServerResponse) {
    const request = body as ResponsesRequest;
    const id = `resp_mock_${++responses}`;
    const item =
      "toolCall" in reply
        ? {
            type: "function_call",
            id: `fc_mock_${responses}`,
            status: "completed",
            call_id: `call_mock_${responses}`,
            // A tool of a namespace (Codex's `multi_agent_v1` tools) is named `namespace/name`.
            ...namedCall(reply.toolCall.name),
            arguments: JSON.stringify(reply.toolCall.arguments),
          }
        : {
            type: "message",
            id: `msg_mock_${responses}`,
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: reply.text, annotations: [] }],
          };
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    };
    const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: request.model };
    if (request.stream !== true) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ...base, status: "completed", output: [item], usage }));
      return;
    }
    let sequence = 0;
    const event = (type: string, data: object) =>
      sendEvent(response, { type, sequence_number: sequence++, ...data }, type);
    startEvents(response);
    event("response.created", { response: { ...base, status: "in_progress", output: [] } });
    if ("text" in reply) {
      event("response.output_item.added", {
        output_index: 0,
        item: { ...item, status: "in_progress", content: [] },
      });
      for (const delta of piecesOf(reply.text))
        event("response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta });
    } else event("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress" } });
    event("response.output_item.done", { output_index: 0, item });
    event("response.completed", { response: { ...base, status: "completed", output: [item], usage } });
    response.end();
  },
};
