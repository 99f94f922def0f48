// Server-sent events read from a fetch response: EventSource cannot send the Authorization header,
// so the page reads the stream itself. The parser follows the format's rules: lines end in LF, CR
// or CRLF (even split across two chunks), `:` starts a comment (the server's keep-alive pings),
// several `data:` lines join with LF, a blank line ends an event, an event without data is none.
// A line is looked for only in the newest chunk, so one large event (a look that changed every row)
// arriving in many chunks is read in one pass, not re-read from its start at each chunk.

export interface StreamEvent {
  /** The `event:` field; "message" when there is none. */
  event: string;
  data: string;
}

/** A parser fed with text as it arrives; it calls `onEvent` for each complete event. */
export function createEventParser(onEvent: (event: StreamEvent) => void): (chunk: string) => void {
  /** The pieces of the line not ended yet. */
  let pending: string[] = [];
  /** The last chunk ended with CR: an LF at the start of the next one belongs to that line end. */
  let afterCr = false;
  let name = "";
  let data: string[] = [];

  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0) onEvent({ event: name || "message", data: data.join("\n") });
      name = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return; // a comment (keep-alive)
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
    // `id` and `retry` are not used: after a reconnect the page reloads what it shows.
  };

  return (chunk) => {
    let start = afterCr && chunk.startsWith("\n") ? 1 : 0;
    afterCr = false;
    const ends = /\r\n|\r|\n/g;
    ends.lastIndex = start;
    for (let end = ends.exec(chunk); end; end = ends.exec(chunk)) {
      pending.push(chunk.slice(start, end.index));
      line(pending.join(""));
      pending = [];
      start = end.index + end[0].length;
      if (end[0] === "\r" && start === chunk.length) afterCr = true;
    }
    if (start < chunk.length) pending.push(chunk.slice(start));
  };
}

/**
 * Reads `response`'s body as server-sent events until it ends (resolves) or fails (throws);
 * `signal` stops it (resolves). `onEvent` may return "stop" to end the reading there.
 */
export async function readEventStream(
  response: Response,
  onEvent: (event: StreamEvent) => void | "stop",
  signal?: AbortSignal,
): Promise<void> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  if (signal?.aborted) return cancel();
  signal?.addEventListener("abort", cancel);
  let stopped = false;
  const push = createEventParser((event) => {
    if (!stopped && onEvent(event) === "stop") stopped = true;
  });
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) return;
      push(value);
    }
    cancel();
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}
