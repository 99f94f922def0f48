import { describe, expect, it } from "vitest";
import { AuditEntrySchema } from "./audit.js";
import {
  cleanupSince,
  cleanupTriggers,
  deletedBefore,
  describeTrigger,
  entryIdOf,
  groupByCleanup,
  latestOperation,
  operationOf,
  parseEntryId,
  parsePurgeConfirmation,
  purgeConfirmation,
  resolveTrashRefs,
  trashTotals,
  type TrashEntry,
  TrashEntrySchema,
  type TrashState,
  undoRefs,
} from "./trash.js";

const OP1 = "20261122T170102Z-3f9a1c";
const OP2 = "20261122T170736Z-3064be";
const OP3 = "20261123T090000Z-aaaaaa"; // fully restored
const S1 = "019a0000-1111-7000-8000-000000000001";
const S2 = "019a0000-2222-7000-8000-000000000002";
const S3 = "019b0000-3333-7000-8000-000000000003";

function entry(entryId: string, id: string, state: TrashState = "in-trash"): TrashEntry {
  return {
    entryId,
    id,
    state,
    originalPath: `/store/--p--/${id}.jsonl`,
    namespace: "/p",
    storeRoot: "/store",
    storeKind: "pi",
    sizeBytes: 100,
    fingerprint: { dev: 1, ino: 1, size: 100, mtimeNs: "1" },
    target: "quarantine",
    sidecars: [],
    deletedAt: "2026-11-22T17:01:02.000Z",
    updatedAt: "2026-11-22T17:01:02.000Z",
  };
}

// OP1 moved S1 and S2; OP2 moved S1 again (after a restore) and S3, whose move did not happen;
// OP3's only entry was restored. meta:… is an orphaned index file's entry.
const ENTRIES = [
  entry(`${OP1}:1`, S1, "restored"),
  entry(`${OP1}:2`, S2),
  entry(`${OP2}:1`, S1),
  entry(`${OP2}:2`, S3, "not-moved"),
  entry(`${OP2}:3`, "meta:0190cccc-0000-7000-8000-000000000009"),
  entry(`${OP3}:1`, "019c0000-4444-7000-8000-000000000004", "restored"),
];

const resolve = (...refs: string[]) => {
  const { entries, problems } = resolveTrashRefs(ENTRIES, refs);
  return { entries: entries.map((e) => e.entryId), problems };
};

describe("resolveTrashRefs", () => {
  it.each<[string, string[], string[]]>([
    ["an entry id", [`${OP1}:2`], [`${OP1}:2`]],
    ["an entry id of a restored entry (the caller says it is not in the trash)", [`${OP1}:1`], [`${OP1}:1`]],
    ["an operation id: every entry of it still in the trash", [OP2], [`${OP2}:1`, `${OP2}:3`]],
    ["a session id: its one entry in the trash, not the restored one", [S1], [`${OP2}:1`]],
    [
      "a session id with a colon (an orphaned index file)",
      ["meta:0190cccc-0000-7000-8000-000000000009"],
      [`${OP2}:3`],
    ],
    ["the start of an operation id", ["20261122T170736"], [`${OP2}:1`, `${OP2}:3`]],
    ["the start of an entry id, past its operation", [`${OP1}:`], [`${OP1}:2`]],
    ["the start of a session id, 8 characters", ["019a0000-2"], [`${OP1}:2`]],
    [
      "several refs naming the same entries: each once, in order",
      [OP2, S1, `${OP1}:2`],
      [`${OP2}:1`, `${OP2}:3`, `${OP1}:2`],
    ],
  ])("%s", (_case, refs, named) => {
    expect(resolve(...refs)).toEqual({ entries: named, problems: [] });
  });

  it.each<[string, string, RegExp]>([
    [
      "a name of nothing",
      "no-such-thing",
      /^nothing in the trash is called no-such-thing \(give an operation id/,
    ],
    ["a start shorter than 8 characters", "019a000", /^nothing in the trash is called 019a000/],
    ["a start of names only restored or never moved", "019b0000", /^nothing in the trash is called 019b0000/],
    [
      "an operation with nothing left in the trash",
      OP3,
      /^nothing of operation 20261123T090000Z-aaaaaa is in the trash any more$/,
    ],
    [
      "a start of two operation ids",
      "20261122T170",
      /^"20261122T170" starts 2 names in the trash: 20261122T170102Z-3f9a1c, 20261122T170736Z-3064be; give more of it$/,
    ],
    [
      "a start of two session ids",
      "019a0000",
      /^"019a0000" starts 2 names in the trash: 019a0000-2222-.*, 019a0000-1111-.*; give more of it$/,
    ],
  ])("%s is a problem, and names nothing", (_case, ref, problem) => {
    const { entries, problems } = resolve(ref);
    expect(entries).toEqual([]);
    expect(problems).toEqual([expect.stringMatching(problem)]);
  });

  it("a session in the trash twice must be named by its entry", () => {
    const twice = [...ENTRIES, entry(`${OP3}:2`, S2)];
    expect(resolveTrashRefs(twice, [S2]).problems).toEqual([
      `session ${S2} is in the trash 2 times; name the entry (${OP1}:2, ${OP3}:2)`,
    ]);
  });

  it("reports every ref that names nothing, beside what the others name", () => {
    expect(resolve(OP2, "nope", `${OP1}:2`, "also-nope")).toEqual({
      entries: [`${OP2}:1`, `${OP2}:3`, `${OP1}:2`],
      problems: [expect.stringMatching(/called nope /), expect.stringMatching(/called also-nope /)],
    });
  });
});

/** An entry of `size` bytes deleted at `at`. */
const weighed = (entryId: string, state: TrashState, sizeBytes: number, deletedAt: string): TrashEntry => ({
  ...entry(
    entryId,
    `019d0000-0000-7000-8000-${entryId.slice(-12).replace(/\D/g, "0").padStart(12, "0")}`,
    state,
  ),
  sizeBytes,
  deletedAt,
});

describe("groupByCleanup", () => {
  it("makes one group per operation, newest first, with what is still in the trash", () => {
    const groups = groupByCleanup(ENTRIES);
    // OP3 was fully restored: nothing left to show.
    expect(groups.map((g) => g.operationId).sort()).toEqual([OP1, OP2]);
    const op2 = groups.find((g) => g.operationId === OP2)!;
    expect(op2.entries.map((e) => e.entryId)).toEqual([`${OP2}:1`, `${OP2}:2`, `${OP2}:3`]);
    expect(op2.inTrash).toEqual({ count: 2, bytes: 200 }); // the not-moved entry is shown, not counted
    const op1 = groups.find((g) => g.operationId === OP1)!;
    expect(op1.entries.map((e) => e.entryId)).toEqual([`${OP1}:2`]); // the restored one is history
    expect(op1.inTrash).toEqual({ count: 1, bytes: 100 });
  });

  it("sorts by when each cleanup ran and names what triggered it, where the audit log says", () => {
    const entries = [
      weighed("A:1", "in-trash", 10, "2026-11-01T00:00:00.000Z"),
      weighed("B:1", "in-trash", 20, "2026-11-20T00:00:00.000Z"),
      weighed("B:2", "in-trash", 30, "2026-11-20T00:00:01.000Z"),
    ];
    const triggers = cleanupTriggers([
      { operationId: "B", actor: "ui", action: "soft-delete" },
      { operationId: "B", actor: "ui", action: "restore" }, // not what started it
      { operationId: "A", actor: "auto", action: "auto-clean" },
      { actor: "cli", action: "config" },
    ]);
    const groups = groupByCleanup(entries, triggers);
    expect(groups.map((g) => [g.operationId, g.deletedAt, g.inTrash.bytes])).toEqual([
      ["B", "2026-11-20T00:00:00.000Z", 50],
      ["A", "2026-11-01T00:00:00.000Z", 10],
    ]);
    expect(groups.map((g) => describeTrigger(g.trigger))).toEqual([
      "a clean from the dashboard",
      "auto-clean",
    ]);
    expect(describeTrigger(undefined)).toBeUndefined();
  });
});

describe("trashTotals and deletedBefore (empty items older than N days)", () => {
  const entries = [
    weighed("A:1", "in-trash", 1000, "2026-10-01T00:00:00.000Z"),
    weighed("A:2", "gone", 5000, "2026-10-01T00:00:00.000Z"), // not ours to purge any more
    weighed("A:3", "purged", 7000, "2026-10-01T00:00:00.000Z"),
    weighed("B:1", "in-trash", 300, "2026-10-26T00:00:00.000Z"), // exactly at the cutoff: not older
    weighed("C:1", "in-trash", 20, "2026-11-20T00:00:00.000Z"),
    weighed("D:1", "in-trash", 4, "not a time"),
  ];

  it("counts and weighs only what is in the trash", () => {
    expect(trashTotals(entries)).toEqual({ count: 4, bytes: 1324 });
  });

  it("takes what is in the trash and was deleted strictly before the cutoff; an unreadable time never", () => {
    const cutoff = new Date("2026-10-26T00:00:00.000Z");
    expect(deletedBefore(entries, cutoff).map((e) => e.entryId)).toEqual(["A:1"]);
    expect(deletedBefore(entries, new Date("2026-12-01T00:00:00.000Z")).map((e) => e.entryId)).toEqual([
      "A:1",
      "B:1",
      "C:1",
    ]);
  });
});

describe("entries written before titles were recorded", () => {
  it("still parse, without a title, beside new ones that have one (trash ledger and audit log alike)", () => {
    const old = entry(`${OP1}:1`, S1);
    expect(TrashEntrySchema.parse(old).title).toBeUndefined();
    expect(TrashEntrySchema.parse({ ...old, title: "why is the build red?" }).title).toBe(
      "why is the build red?",
    );
    const item = { id: S1, path: old.originalPath, bytes: 100, result: "moved" };
    const auditEntry = {
      time: "2026-11-22T17:01:02.000Z",
      actor: "cli",
      action: "soft-delete",
      result: "ok",
    };
    expect(AuditEntrySchema.parse({ ...auditEntry, items: [item] }).items[0]!.title).toBeUndefined();
    expect(AuditEntrySchema.parse({ ...auditEntry, items: [{ ...item, title: "x" }] }).items[0]!.title).toBe(
      "x",
    );
  });
});

describe("the names the trash is handled by", () => {
  it("an entry id round-trips through entryIdOf and parseEntryId, and names its operation", () => {
    const id = entryIdOf(OP1, 17);
    expect(id).toBe(`${OP1}:17`);
    expect(parseEntryId(id)).toEqual({ operationId: OP1, seq: 17 });
    expect(operationOf(id)).toBe(OP1);
  });

  it.each([
    OP1, // an operation, no item
    `${OP1}:`,
    `${OP1}:-1`,
    `${OP1}:1.5`,
    `${OP1}:1:2`,
    `x${OP1}:1`,
    `20261122T170102Z-XYZ:1`, // not hex
    S1,
    "",
  ])("parseEntryId refuses %j", (text) => {
    expect(parseEntryId(text)).toBeUndefined();
  });

  it("a purge confirmation is COUNT:BYTES of exactly the entries given, and reads back", () => {
    const chosen = [entry(`${OP1}:1`, S1), { ...entry(`${OP1}:2`, S2), sizeBytes: 2_500 }];
    expect(purgeConfirmation(chosen)).toBe("2:2600");
    expect(parsePurgeConfirmation(purgeConfirmation(chosen))).toEqual({ count: 2, bytes: 2_600 });
    expect(purgeConfirmation([])).toBe("0:0");
  });

  it.each([
    "",
    "2",
    "2:",
    ":2600",
    "2:2600:1",
    "-2:2600",
    "2:26e2",
    " 2:2600",
    "2:2600 ",
    "a:b",
    "99999999999999999999:1",
  ])("parsePurgeConfirmation refuses %j", (text) => {
    expect(parsePurgeConfirmation(text)).toBeUndefined();
  });

  it("undo restores what the named operations moved that is still in the trash, and nothing else", () => {
    const entries = [
      entry(`${OP1}:1`, S1),
      entry(`${OP1}:2`, S2, "restored"),
      entry(`${OP1}:3`, S3, "gone"),
      entry(`${OP2}:1`, S1),
      entry(`${OP3}:1`, S2),
    ];
    expect(undoRefs(entries, [OP1])).toEqual([`${OP1}:1`]);
    expect(undoRefs(entries, [OP1, OP3])).toEqual([`${OP1}:1`, `${OP3}:1`]);
    expect(undoRefs(entries, ["20261122T170102Z"])).toEqual([]); // a start of an operation is not one
    expect(undoRefs(entries, [])).toEqual([]);
  });

  it("what became of one operation's sessions: restored (the latest time), still in the trash, neither", () => {
    const restoredAt = (e: TrashEntry, updatedAt: string): TrashEntry => ({ ...e, updatedAt });
    const entries = [
      restoredAt(entry(`${OP1}:1`, S1, "restored"), "2026-11-22T18:00:00.000Z"),
      restoredAt(entry(`${OP1}:2`, S2, "restored"), "2026-11-22T18:30:00.000Z"),
      entry(`${OP1}:3`, S3),
      entry(`${OP1}:4`, "019c0000-4444-7000-8000-000000000004", "purged"),
      entry(`${OP1}:5`, "019c0000-5555-7000-8000-000000000005", "not-moved"),
      restoredAt(entry(`${OP2}:1`, S1, "restored"), "2026-11-23T00:00:00.000Z"), // another operation's
    ];
    expect(cleanupSince(entries, OP1)).toEqual({
      restored: 2,
      restoredAt: "2026-11-22T18:30:00.000Z",
      inTrash: 1,
    });
    expect(cleanupSince(entries, OP3)).toEqual({ restored: 0, inTrash: 0 });
  });

  it("a bare undo takes back the operation that last moved something still in the trash", () => {
    const at = (e: TrashEntry, deletedAt: string): TrashEntry => ({ ...e, deletedAt });
    const entries = [
      at(entry(`${OP1}:1`, S1), "2026-11-22T17:01:02.000Z"),
      at(entry(`${OP2}:1`, S2), "2026-11-22T17:07:36.000Z"),
      // Later, but restored since: not what an undo takes back.
      at(entry(`${OP3}:1`, S3, "restored"), "2026-11-23T09:00:00.000Z"),
    ];
    expect(latestOperation(entries)).toBe(OP2);
    expect(latestOperation(entries.slice(2))).toBeUndefined();
  });
});
