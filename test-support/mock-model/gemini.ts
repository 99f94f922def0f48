// Gemini's `generateContent` (`POST …/models/<model>:generateContent`, one JSON answer) and
// `streamGenerateContent` (`?alt=sse`: the same answer as a stream of `data:` chunks), which Gemini
// CLI speaks with an API key: text in `candidates[0].content.parts[].text`, a tool call as a
// `functionCall` part, the last chunk with `finishReason` and `usageMetadata`. A request whose
// `generationConfig` names a response schema (the CLI's routing and next-speaker side questions)
// is a turn with `jsonSchema`. `:countTokens` is answered too (a count, no turn).
import type { ServerResponse } from "node:http";
import type { Dialect } from "./dialect.js";
import { sendEvent, startEvents } from "./sse.js";
import type { Reply } from "./turn.js";

interface Part {
  text?: unknown;
  thought?: unknown;
  functionCall?: unknown;
  functionResponse?: { name?: unknown; response?: unknown };
}

interface Content {
  role?: unknown;
  parts?: Part[];
}

interface GenerateRequest {
  contents?: unknown;
  generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown };
}

const ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

/**
 * What the person typed in a user message: its last text part that is not the context block
 * (`<session_context>…`) Gemini CLI puts beside the prompt.
 */
const textOf = (content: Content | undefined) =>
  (content?.parts ?? [])
    .flatMap((part) =>
      typeof part?.text === "string" && part.thought !== true && !part.text.trimStart().startsWith("<")
        ? [part.text]
        : [],
    )
    .at(-1) ?? "";

/** A function's result as the CLI sends it (`response: {output: "…"}`), as text. */
function resultOf(part: Part): string {
  const response = part.functionResponse?.response as { output?: unknown } | undefined;
  return typeof response?.output === "string" ? response.output : JSON.stringify(response ?? null);
}

let calls = 0;

export const gemini: Dialect = {
  name: "gemini",
  serves: (method, path) => method === "POST" && ROUTE.test(path),

  turnOf(body, path) {
    const [, model, method] = ROUTE.exec(path)!;
    const request = body as GenerateRequest;
    if (!Array.isArray(request?.contents) || request.contents.length === 0) throw new Error("no contents");
    const contents = request.contents as Content[];
    const last = contents.at(-1);
    const results = (last?.parts ?? []).filter((part) => part?.functionResponse);
    const afterToolResult = last?.role === "user" && results.length > 0;
    const lastUser = contents.findLast((c) => c?.role === "user" && textOf(c) !== "");
    const schema = request.generationConfig?.responseJsonSchema ?? request.generationConfig?.responseSchema;
    return {
      model: method === "countTokens" ? `${model!} (count)` : model!,
      userText: textOf(lastUser),
      afterToolResult,
      ...(afterToolResult ? { toolResult: results.map(resultOf).join("\n") } : {}),
      messageCount: contents.length,
      ...(schema !== undefined ? { jsonSchema: schema } : {}),
    };
  },

  answer(reply: Reply, _body, path, response: ServerResponse) {
    const method = ROUTE.exec(path)![2];
    if (method === "countTokens") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    calls++;
    const part =
      "toolCall" in reply
        ? {
            functionCall: {
              id: `call_mock_${calls}`,
              name: reply.toolCall.name,
              args: reply.toolCall.arguments,
            },
          }
        : { text: reply.text };
    const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    const chunk = (parts: object[], last: boolean) => ({
      candidates: [
        {
          content: { role: "model", parts },
          index: 0,
          ...(last ? { finishReason: "STOP" } : {}),
        },
      ],
      ...(last ? { usageMetadata } : {}),
      modelVersion: "mock-1",
      responseId: `mock-${calls}`,
    });
    if (method === "generateContent") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(chunk([part], true)));
      return;
    }
    startEvents(response);
    if ("text" in reply) {
      // The text in two pieces, the second on the last chunk: a client must join them.
      const half = Math.ceil(reply.text.length / 2);
      sendEvent(response, chunk([{ text: reply.text.slice(0, half) }], false));
      sendEvent(response, chunk([{ text: reply.text.slice(half) }], true));
    } else sendEvent(response, chunk([part], true));
    response.end();
  },
};
