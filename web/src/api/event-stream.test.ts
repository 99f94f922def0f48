import { describe, expect, it } from "vitest";
import type { SessionsResponse, SummaryResponse } from "../../../shared/api.js";
import { ApiError, createApiClient, type LookChange } from "./client.js";
import { createEventParser, readEventStream, type StreamEvent } from "./event-stream.js";

/** A streamed response whose body arrives in exactly these chunks. */
function streamed(chunks: string[], contentType = "text/event-stream"): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": contentType } });
}

const parse = (chunks: string[]) => {
  const events: StreamEvent[] = [];
  const push = createEventParser((e) => events.push(e));
  for (const chunk of chunks) push(chunk);
  return events;
};

// CRLF, CR and LF line ends, a keep-alive comment, an event of two data lines, an event without
// data (none), a field without a colon, an unnamed event, and an event not ended by a blank line.
const TEXT =
  ': ping\r\n\r\nevent: watch\r\ndata: {"mode":"watching"}\r\n\r\n' +
  "event: look\ndata: line one\ndata:line two\n\n" +
  "event: nothing\n\n" +
  "event: look\rdata\r\r" +
  "data: plain\n\n" +
  "event: cut\ndata: never ended\n";
const EXPECTED: StreamEvent[] = [
  { event: "watch", data: '{"mode":"watching"}' },
  { event: "look", data: "line one\nline two" },
  { event: "look", data: "" },
  { event: "message", data: "plain" },
];

describe("the event stream parser", () => {
  it("reads events, comments and every kind of line end", () => {
    expect(parse([TEXT])).toEqual(EXPECTED);
  });

  it("reads the same however the text is split into chunks (a CRLF split in two too)", () => {
    for (let at = 1; at < TEXT.length; at++)
      expect(parse([TEXT.slice(0, at), TEXT.slice(at)]), `split at ${at}`).toEqual(EXPECTED);
    expect(parse([...TEXT])).toEqual(EXPECTED);
  });

  it("reads a response to its end, and stops where asked", async () => {
    const seen: string[] = [];
    await readEventStream(streamed(["event: a\ndata: 1\n\nevent: b\nda", "ta: 2\n\n"]), (e) => {
      seen.push(`${e.event}=${e.data}`);
    });
    expect(seen).toEqual(["a=1", "b=2"]);
    const until: string[] = [];
    await readEventStream(streamed(["data: 1\n\ndata: 2\n\n", "data: 3\n\n"]), (e) => {
      until.push(e.data);
      return e.data === "2" ? "stop" : undefined;
    });
    expect(until).toEqual(["1", "2"]);
  });
});

/** The wire form of a look: rows encoded against the event's own roots and namespaces. */
function lookEvent(version: number, from: number, rows: SessionsResponse["rows"], removed: string[] = []) {
  const summary: SummaryResponse = {
    source: { kind: "pi" },
    policy: { configPath: "/c.json", source: "defaults", problems: [], readOnly: false },
    scannedAt: "2026-01-01T00:00:00.000Z",
    stores: [],
    summary: {
      sessionCount: 2,
      totalBytes: 300,
      namespaceCount: 1,
      sessionsWithWarnings: 0,
      warningCount: 0,
      problemCount: 0,
      largest: [],
    },
    namespaces: [],
    agents: [],
    problems: [],
    findings: [],
  };
  return {
    version,
    from,
    summary,
    sessions: {
      total: 2,
      roots: [
        { kind: "pi", root: "/other" },
        { kind: "pi", root: "/home/u/.pi/agent/sessions" },
      ],
      namespaces: ["/work/x", "/work/y"],
      upserted: rows,
      removed,
      version,
    },
  };
}
const tuple = (id: string, ns: number): SessionsResponse["rows"][number] => [
  id,
  1,
  `--work-y--/2026_${id}.jsonl`,
  ns,
  300,
  1_700_000_000,
  1_700_000_100,
  5,
  4,
  null,
  null,
  0,
  null,
  "hello",
  null,
  null,
  null,
];

/** A client whose fetch answers /api/events with `response`, recording what was asked. */
function clientAnswering(response: () => Response) {
  const asked: Array<{ url: string; headers: Record<string, string> }> = [];
  const api = createApiClient({
    token: () => "tok",
    fetch: async (input, init) => {
      asked.push({ url: String(input), headers: init?.headers as Record<string, string> });
      return response();
    },
  });
  return { api, asked };
}

describe("the client's live events", () => {
  it("asks with the token in its header, and decodes looks and watch states; pings and foreign events are skipped", async () => {
    const look = JSON.stringify(lookEvent(4, 3, [tuple("a1", 1)], ["gone"]));
    const { api, asked } = clientAnswering(() =>
      streamed([
        `: ping\n\nevent: watch\ndata: {"mode":"watching"}\n\nevent: look\ndata: ${look.slice(0, 50)}`,
        `${look.slice(50)}\n\n: ping\n\n`,
        "event: look\ndata: {not json\n\n",
        `event: look\ndata: ${JSON.stringify(lookEvent(5, 4, [["short"]] as never))}\n\n`,
        'event: watch\ndata: {"mode":"rescanning","message":"No inotify watches left."}\n\n',
      ]),
    );
    const looks: LookChange[] = [];
    const watches: unknown[] = [];
    await api.events({ look: (c) => looks.push(c), watch: (w) => watches.push(w) });
    expect(asked[0]!.url).toBe("/api/events");
    expect(asked[0]!.headers).toMatchObject({ Authorization: "Bearer tok", Accept: "text/event-stream" });
    expect(watches).toEqual([
      { mode: "watching" },
      { mode: "rescanning", message: "No inotify watches left." },
    ]);
    expect(looks).toHaveLength(1);
    const [change] = looks;
    expect(change!.version).toBe(4);
    expect(change!.from).toBe(3);
    expect((change!.summary as SummaryResponse).version).toBe(4);
    expect(change!.sessions.removed).toEqual(["gone"]);
    expect(change!.sessions.namespaces).toEqual(["/work/x", "/work/y"]);
    const row = change!.sessions.upserted[0]!;
    expect(row.id).toBe("a1");
    expect(row.path).toBe("/home/u/.pi/agent/sessions/--work-y--/2026_a1.jsonl");
    expect(row.namespace).toBe("/work/y");
    expect(row.sizeBytes).toBe(300);
    expect(row.lastUsedAt).toBe(new Date((1_700_000_100 + 5) * 1000).toISOString());
  });

  it("a server without the stream (an answer that is not one) is an error, not an empty stream", async () => {
    const { api } = clientAnswering(
      () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }),
    );
    await expect(api.events({ look: () => {}, watch: () => {} })).rejects.toBeInstanceOf(ApiError);
    const { api: refusing } = clientAnswering(() => new Response("{}", { status: 404 }));
    await expect(refusing.events({ look: () => {}, watch: () => {} })).rejects.toMatchObject({ status: 404 });
  });

  it("follows a scan's progress to its done event", async () => {
    const progress = { phase: "reading", filesDone: 1, filesTotal: 2, bytesDone: 10, bytesTotal: 20 };
    const { api } = clientAnswering(() =>
      streamed([
        `event: progress\ndata: ${JSON.stringify(progress)}\n\n: ping\n\nevent: done\ndata: {}\n\n`,
        `event: progress\ndata: ${JSON.stringify({ ...progress, filesDone: 2 })}\n\n`,
      ]),
    );
    const seen: unknown[] = [];
    await api.followScan((p) => seen.push(p));
    expect(seen).toEqual([progress]);
  });
});
