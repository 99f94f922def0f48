// Server-sent events as the model APIs stream them: `data: <json>` lines (with an `event:` line where
// the protocol names its events), each followed by a blank line.
import type { ServerResponse } from "node:http";

/** Starts an event stream: status 200 and the headers every SSE client accepts. */
export function startEvents(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

/** Writes one event; `data` is JSON-encoded unless it is a string already (OpenAI's `[DONE]`). */
export function sendEvent(response: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  response.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
}
