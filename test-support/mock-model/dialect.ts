// The contract of one wire protocol of the mock model: which requests it serves, how it reads the
// turn from a request's body and how it writes a reply. Each protocol is one file implementing it
// (openai-chat.ts, openai-responses.ts, anthropic-messages.ts, gemini.ts), listed in server.ts.
import type { ServerResponse } from "node:http";
import type { Reply, Turn } from "./turn.js";

export interface Dialect {
  /** Short and stable: it is `Turn.dialect` and names the dialect in errors. */
  name: string;
  /** Whether this dialect answers a request to `path` (no query string) with this method. */
  serves(method: string, path: string): boolean;
  /** The turn a request's JSON body asks for; throws, saying what is wrong, when it is not one. */
  turnOf(body: unknown, path: string): Omit<Turn, "dialect">;
  /** Writes the whole answer (streamed when the request asked for a stream) and ends the response. */
  answer(reply: Reply, body: unknown, path: string, response: ServerResponse): void;
}
