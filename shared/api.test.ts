import { describe, expect, it } from "vitest";
import {
  checkSessionsResponse,
  decodeSessionRows,
  isSessionRowTuple,
  pathOfRow,
  rowPath,
  type SessionRowTuple,
  SessionsResponseSchema,
} from "./api.js";

const ROW: SessionRowTuple = [
  "0193a",
  0,
  "--work-app--/a.jsonl",
  0,
  1234,
  1_767_225_600,
  1_767_229_200,
  60,
  7,
  "a name",
  ["tag"],
  1,
  "pinned",
  "why is the build red?",
  "pinned",
  "and the lint?",
  1,
];
const response = (rows: unknown[]) => ({
  total: rows.length,
  matching: rows.length,
  roots: [{ kind: "pi", root: "/home/u/.pi/agent/sessions" }],
  namespaces: ["/work/app"],
  rows,
});
const rowSchema = SessionsResponseSchema.shape.rows.element;

describe("isSessionRowTuple agrees with the row schema", () => {
  const wrong: unknown[] = ["x", 1, null, [], {}, true, ["x", 1]];
  const variants: unknown[] = [
    ROW,
    [...ROW.slice(0, 9), null, null, 0, null, null, null, null, null],
    ROW.slice(0, 15),
    [...ROW.slice(0, 16), true],
    [...ROW.slice(0, 16), 0],
    [...ROW, null],
    {},
    null,
  ];
  for (let position = 0; position < ROW.length; position++)
    for (const value of wrong) {
      const row: unknown[] = [...ROW];
      row[position] = value;
      variants.push(row);
    }
  it.each(variants.map((row) => [JSON.stringify(row), row]))("%s", (_, row) => {
    expect(isSessionRowTuple(row)).toBe(rowSchema.safeParse(row).success);
  });
});

describe("checkSessionsResponse", () => {
  it("takes a well-formed answer, refuses a bad envelope, row, root or namespace index", () => {
    expect(checkSessionsResponse(response([ROW]))).toBeDefined();
    expect(checkSessionsResponse({ ...response([ROW]), total: "1" })).toBeUndefined();
    expect(checkSessionsResponse(response([[...ROW.slice(0, 4), "big", ...ROW.slice(5)]]))).toBeUndefined();
    const badRoot: unknown[] = [...ROW];
    badRoot[1] = 1;
    expect(checkSessionsResponse(response([badRoot]))).toBeUndefined();
    const badNamespace: unknown[] = [...ROW];
    badNamespace[3] = -1;
    expect(checkSessionsResponse(response([badNamespace]))).toBeUndefined();
    expect(checkSessionsResponse(undefined)).toBeUndefined();
  });
});

describe("decodeSessionRows", () => {
  it("decodes a row to the table's object, times as epoch seconds and (when read) ISO", () => {
    const [row] = decodeSessionRows(checkSessionsResponse(response([ROW]))!);
    const expected = {
      id: "0193a",
      path: "/home/u/.pi/agent/sessions/--work-app--/a.jsonl",
      store: "pi",
      namespace: "/work/app",
      sizeBytes: 1234,
      createdSeconds: 1_767_225_600,
      modifiedSeconds: 1_767_229_200,
      lastUsedSeconds: 1_767_229_260,
      createdAt: "2026-01-01T00:00:00.000Z",
      modifiedAt: "2026-01-01T01:00:00.000Z",
      lastUsedAt: "2026-01-01T01:01:00.000Z",
      messageCount: 7,
      name: "a name",
      tags: ["tag"],
      warnings: 1,
      kept: "pinned",
      firstMessage: "why is the build red?",
      verdict: "pinned",
      lastPrompt: "and the lint?",
      archived: true,
    };
    expect(row).toMatchObject(expected);
    expect(JSON.parse(JSON.stringify(row))).toEqual(expected);
  });

  it("leaves out what a row does not have", () => {
    const [row] = decodeSessionRows(
      checkSessionsResponse(response([[...ROW.slice(0, 9), null, null, 0, null, null, null, null, null]]))!,
    );
    expect(Object.keys(JSON.parse(JSON.stringify(row)))).not.toContain("name");
    expect(Object.keys(JSON.parse(JSON.stringify(row)))).not.toContain("firstMessage");
    expect(Object.keys(JSON.parse(JSON.stringify(row)))).not.toContain("lastPrompt");
    expect(row!.archived).toBeUndefined();
    expect(row!.kept).toBeUndefined();
    expect(row!.tags).toBeUndefined();
  });
});

describe("rowPath", () => {
  const id = "019ffc69-3b73-7414-8509-daab011eed38";
  it.each([
    // pi's own name: the id is left out, and comes back.
    [`--work-app--/2026-08-03T07-43-17-296Z_${id}.jsonl`, true],
    // Anything else is sent as it is: another id, a path-derived id, a folder session, a name that
    // merely ends with "_", a name holding the id elsewhere.
    ["--work-app--/2026-08-03T07-43-17-296Z_019ffc69-0000-7000-8000-000000000000.jsonl", false],
    ["custom/notes.jsonl", false],
    ["ws-17_", false],
    [`${id}.jsonl`, false],
    [`--x--/${id}_copy.jsonl`, false],
  ])("%s round-trips (shortened: %s)", (path, shortened) => {
    const sent = rowPath(path, id);
    expect(sent.length < path.length).toBe(shortened);
    expect(pathOfRow(sent, id)).toBe(path);
  });
});
