// Following a delete from the page: the statuses it reports while the server runs it, what it
// returns when it ends, and the error when the result is gone (another tab dismissed it).
import { describe, expect, it } from "vitest";
import type { OperationStatus } from "../../../shared/api.js";
import { followOperation, progressText } from "./operation.js";

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
