// The sessions table's serialized rows: byte for byte what JSON.stringify of the same answer gives,
// for every sort, filter and page (the stored order sent as views, the others copied), rows larger
// than a buffer included.
import { describe, expect, it } from "vitest";
import { SessionsQuerySchema, type SessionsQuery } from "../../shared/api.js";
import { validateConfig } from "../../shared/config.js";
import type { SessionRecord } from "../../shared/session-record.js";
import { wouldClean } from "../../shared/verdict.js";
import { type PlanInputs, planFor } from "../plan/plan-inputs.js";
import { buildSessionsTable } from "./sessions-table.js";

const ROOT = "/store";
const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n)).toISOString();

function record(i: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: `0190ffff-0000-7000-8000-${String(i).padStart(12, "0")}`,
    store: { kind: "pi", root: ROOT },
    path: `${ROOT}/--work-${i % 3}--/s${i}.jsonl`,
    namespace: `/work/${i % 3}`,
    sizeBytes: 1000 + ((i * 7919) % 5000),
    createdAt: day(i % 17),
    modifiedAt: day(20 + (i % 11)),
    lastUsedAt: day(20 + (i % 11)),
    fingerprint: { dev: 1, ino: i, size: 1000, mtimeNs: "1" },
    messageCount: i,
    messageCounts: { user: i, assistant: 0, toolResult: 0, other: 0 },
    warnings: [],
    ...extra,
  };
}

function defaults() {
  const checked = validateConfig({}, "/home/nobody");
  if (!checked.ok) throw new Error("the default config is invalid");
  return checked.config;
}

function inputsOf(sessions: SessionRecord[], config = defaults()): PlanInputs {
  return {
    // The defaults: the newest sessions are kept ("recent"), so kept reasons are in the rows too.
    config: { ok: true, path: "/nowhere.json", source: "defaults", config },
    report: {
      scannedAt: day(40),
      stores: [{ kind: "pi", root: ROOT }],
      summary: {} as PlanInputs["report"]["summary"],
      namespaces: [],
      sessions,
      problems: [],
      stats: { durationMs: 0, filesRead: 0, bytesRead: 0, cacheHits: 0 },
    },
    notes: [],
    pins: [],
    activeIds: new Map(),
    sweeps: [],
  };
}

async function bytesOf(table: ReturnType<typeof buildSessionsTable>, query: SessionsQuery) {
  const { byteLength, pieces } = table.json(query);
  const body = Buffer.concat([...pieces()]);
  expect(body.length).toBe(byteLength);
  return body.toString("utf8");
}

describe("buildSessionsTable", () => {
  const sessions = Array.from({ length: 3000 }, (_, i) =>
    record(
      i,
      i % 5 === 0
        ? { name: `näme ${i} "quoted"`, tags: ["a", `t${i % 2}`] }
        : i % 7 === 0
          ? { firstMessage: `fïx test ${i}` }
          : {},
    ),
  );
  // The rows fill a dozen storage buffers (64 KiB); one row is bigger than a buffer.
  sessions.push(record(3000, { name: "x".repeat(200_000) }));
  const table = buildSessionsTable(inputsOf(sessions));

  it.each([
    {},
    { sort: "size" },
    { sort: "created", offset: 10, limit: 25 },
    { namespace: "/work/1" },
    { tag: "t1", sort: "size" },
    { text: "NÄME 1" },
    { text: "no such text" },
    { text: "FÏX TEST 14" },
    { offset: 2990 },
    { offset: 1500, limit: 700 },
    { offset: 5000 },
  ])("json(%o) is JSON.stringify of query()", async (raw) => {
    const query = SessionsQuerySchema.parse(raw);
    const answer = table.query(query);
    const expected = JSON.stringify(answer);
    expect(await bytesOf(table, query)).toBe(expected);
  });

  it("rows carry the kept reasons; namespaces are numbered in record order, whatever the sort", () => {
    const { rows, namespaces } = table.query(SessionsQuerySchema.parse({}));
    expect(rows.some((row) => row[12] === "recent")).toBe(true);
    expect(namespaces).toEqual(["/work/0", "/work/1", "/work/2"]);
  });

  it("rows end with the first message; the text search finds a session by it", () => {
    const { rows, matching } = table.query(SessionsQuerySchema.parse({ text: "fïx test 2996" }));
    expect(matching).toBe(1);
    expect(rows[0]![13]).toBe("fïx test 2996");
    expect(rows[0]![9]).toBeNull();
  });

  it("answers an empty store", async () => {
    const empty = buildSessionsTable(inputsOf([]));
    const query = SessionsQuerySchema.parse({});
    expect(JSON.parse(await bytesOf(empty, query))).toEqual({
      total: 0,
      matching: 0,
      roots: [{ kind: "pi", root: ROOT }],
      namespaces: [],
      verdicts: expect.objectContaining({ recent: "kept · among the 30 most recent" }),
      rows: [],
    });
  });

  it("rows carry the policy's verdict: those it would clean are exactly the plan's candidates", () => {
    const config = defaults();
    config.retention.maxAgeDays = 15;
    const now = new Date(day(40));
    const inputs = inputsOf(sessions.slice(0, 300), config);
    const built = buildSessionsTable(inputs, now);
    const { rows, verdicts } = built.query(SessionsQuerySchema.parse({}));
    const plan = planFor(
      { ...inputs, config: { ok: true, path: "/nowhere.json", source: "defaults", config } },
      now,
    );
    const cleaned = rows.filter((row) => wouldClean(row[14] ?? undefined)).map((row) => row[0]);
    expect(plan.candidates.length).toBeGreaterThan(0);
    expect(new Set(cleaned)).toEqual(new Set(plan.candidates.map((c) => c.id)));
    expect(rows.every((row) => row[14] !== null)).toBe(true);
    expect(verdicts?.maxAgeDays).toBe("would clean · older than 15 days");
    // The drawer's words for one session (the session detail sends them).
    expect(built.verdict(plan.candidates[0]!.id)).toEqual({
      clean: true,
      text: "would clean · older than 15 days",
    });
    expect(built.verdict(plan.kept[0]!.id)?.clean).toBe(false);
    expect(built.verdict("no-such-id")).toBeUndefined();
  });

  it("sends no verdict without a valid policy", () => {
    const inputs: PlanInputs = {
      ...inputsOf(sessions.slice(0, 10)),
      config: {
        ok: false,
        path: "/bad.json",
        source: "file",
        errors: ["broken"],
      } as unknown as PlanInputs["config"],
    };
    const answer = buildSessionsTable(inputs).query(SessionsQuerySchema.parse({}));
    expect(answer.verdicts).toBeUndefined();
    expect(answer.rows.every((row) => row[14] === null && row[12] === null)).toBe(true);
  });

  it("pieces can be taken again, each time fresh", async () => {
    const query = SessionsQuerySchema.parse({ sort: "size" });
    expect(await bytesOf(table, query)).toBe(await bytesOf(table, query));
  });
});
