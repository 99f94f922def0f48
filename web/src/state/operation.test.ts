// Following a delete from the page: the statuses it reports while the server runs it, what it
// returns when it ends, and the error when the result is gone (another tab dismissed it).
import { describe, expect, it } from "vitest";
import type { OperationStatus } from "../../../shared/api.js";
import { followOperation, progressText, sinceText } from "./operation.js";

const base = { id: "op-12345678", kind: "delete" as const, startedAt: "2026-11-25T00:00:00.000Z" };
const running = (done: number, total: number, phase: "preparing" | "moving" = "moving") =>
  ({ state: "running", ...base, phase, done, total, stopRequested: false }) as const;
const finished: OperationStatus = {
  state: "finished",
  ...base,
  finishedAt: "2026-11-25T00:00:14.000Z",
  result: { dryRun: false, moved: [], skipped: [], bytesFreed: 0 },
};

/** An api whose status answers are `answers`, one per call. */
const answering = (answers: OperationStatus[]) => ({
  operation: async () => answers.shift() ?? { state: "none" as const },
});
const noWait = async () => {};

describe("followOperation", () => {
  it("reports each running status and returns the finished one", async () => {
    const seen: number[] = [];
    const end = await followOperation(
      answering([running(0, 3, "preparing"), running(1, 3), running(3, 3), finished]),
      base.id,
      (s) => seen.push(s.done),
      noWait,
    );
    expect(seen).toEqual([0, 1, 3]);
    expect(end).toEqual(finished);
  });

  it("says so when the result is gone or another operation is current", async () => {
    await expect(followOperation(answering([{ state: "none" }]), base.id, () => {}, noWait)).rejects.toThrow(
      /result is gone/,
    );
    await expect(
      followOperation(answering([{ ...finished, id: "another-op-1" }]), base.id, () => {}, noWait),
    ).rejects.toThrow(/result is gone/);
  });
});

describe("progressText", () => {
  it("counts with separators, says when it prepares and when it stops", () => {
    expect(progressText(running(812, 1435))).toBe("Moving 812 of 1,435");
    expect(progressText(running(0, 0, "preparing"))).toMatch(/^Preparing/);
    expect(progressText({ ...running(3, 20000), stopRequested: true })).toBe(
      "Moving 3 of 20,000 — stopping after the current item…",
    );
  });
});

describe("sinceText", () => {
  const at = (iso: string) => iso.slice(11, 16);
  it("says nothing while all of it is in the trash; undone, partly undone, or partly gone otherwise", () => {
    expect(sinceText(12, { restored: 0, inTrash: 12 }, at)).toBeUndefined();
    const restoredAt = "2026-11-25T10:42:09.000Z";
    expect(sinceText(12, { restored: 12, restoredAt, inTrash: 0 }, at)).toBe(
      "Undone: 12 sessions restored at 10:42.",
    );
    expect(sinceText(1, { restored: 1, restoredAt, inTrash: 0 }, at)).toBe(
      "Undone: 1 session restored at 10:42.",
    );
    expect(sinceText(12, { restored: 5, restoredAt, inTrash: 7 }, at)).toBe(
      "Partly undone: 5 of 12 sessions restored at 10:42; 7 still in the trash.",
    );
    expect(sinceText(2_000, { restored: 5, restoredAt, inTrash: 1_990 }, at)).toBe(
      "Partly undone: 5 of 2,000 sessions restored at 10:42; 1,990 still in the trash; 5 no longer in the trash (purged or removed).",
    );
    expect(sinceText(4, { restored: 3, restoredAt, inTrash: 0 }, at)).toBe(
      "Partly undone: 3 of 4 sessions restored at 10:42; 1 no longer in the trash (purged or removed).",
    );
    expect(sinceText(4, { restored: 0, inTrash: 1 }, at)).toBe(
      "1 still in the trash; 3 no longer in the trash (purged or removed).",
    );
  });
});
