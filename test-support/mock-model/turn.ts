// What a mock model is asked and what it answers, in no provider's words: each dialect (one file per
// wire protocol, e.g. openai-chat.ts) turns its request into a `Turn` and writes a `Reply` its way,
// so a test's script of answers does not change with the protocol an agent speaks.
import { sampleOf } from "./json-sample.js";

/** One request to the model, as any dialect reads it. */
export interface Turn {
  /** Which dialect answered it (its `name`). */
  dialect: string;
  model: string;
  /** The text of the latest user message ("" when it has none). */
  userText: string;
  /** Whether the latest message is a tool's result (the model is to go on after its tool call). */
  afterToolResult: boolean;
  /** The latest tool result's text, when `afterToolResult`. */
  toolResult?: string;
  /** How many messages the conversation sent has (system prompt not counted). */
  messageCount: number;
  /**
   * The JSON schema the answer must fit, when the client asks for structured output (Gemini CLI's
   * routing, next-speaker and summary side questions): the answer is then JSON text of that shape.
   */
  jsonSchema?: unknown;
}

/** What the model answers: text, or one call of a tool. */
export type Reply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

/** Chooses the reply to a turn; the `index` counts requests from 0. */
export type Responder = (turn: Turn, index: number) => Reply;

/**
 * The default script: a question that names a JSON schema gets the smallest JSON of that shape
 * (json-sample.ts); a user message `tool: NAME {json}` asks for one call of that tool; after a
 * tool's result the model says `done: <result>`; anything else is answered `reply N: <message>`.
 */
export const defaultResponder: Responder = (turn, index) => {
  if (turn.jsonSchema !== undefined) return { text: JSON.stringify(sampleOf(turn.jsonSchema)) };
  if (turn.afterToolResult) return { text: `done: ${turn.toolResult ?? ""}` };
  const asked = /^tool: (\S+) (\{.*\})\s*$/s.exec(turn.userText);
  if (asked)
    return { toolCall: { name: asked[1]!, arguments: JSON.parse(asked[2]!) as Record<string, unknown> } };
  return { text: `reply ${index + 1}: ${turn.userText}` };
};
