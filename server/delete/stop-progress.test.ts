// A run that is followed and stopped, against real pi sessions in a temporary store: progress is
// reported after every item, a stop takes effect between items (what moved stays moved, with its
// undo; the rest is untouched), and the journal is left with nothing for recovery to do.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeConfigFile } from "../../test-support/config-file.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { readAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";
import { listTrash, recover, restore, softDelete, STOPPED_REASON } from "./deletion-engine.js";
import { piStores } from "../../test-support/pi-stores.js";

const OLD = new Date("2025-01-01T00:00:00Z");
const engine = { actor: "ui" as const };

async function store(n: number, target: "quarantine" | "trash" = "quarantine") {
  writeConfigFile({
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    deletion: { target },
  });
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-stop-")));
  for (let i = 0; i < n; i++) setModified(writeSession(root, `/work/p${i % 3}`, 1).getSessionFile()!, OLD);
  const { sessions } = await scanStores({ stores: piStores(root) });
  const request = {
    items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
    stores: piStores(root),
    via: "selection" as const,
  };
  return { sessions, request };
}

/** A control that asks to stop once `after` items are handled, recording every progress call. */
function stopAfter(after: number) {
  const calls: Array<{ done: number; total: number }> = [];
  return {
    calls,
    control: {
      onProgress: (p: { done: number; total: number }) => calls.push(p),
      stopRequested: () => (calls.at(-1)?.done ?? 0) >= after,
    },
  };
}

describe("a followed delete reports progress and stops between items", () => {
  it("counts every item, from 0 to the total", async () => {
    const { sessions, request } = await store(70);
    const { calls, control } = stopAfter(Infinity);
    const result = await softDelete(request, engine, control);
    expect(result.moved).toHaveLength(70);
    expect(result.stopped).toBeUndefined();
    expect(calls.map((c) => c.done)).toEqual(Array.from({ length: 71 }, (_, i) => i));
    expect(new Set(calls.map((c) => c.total))).toEqual(new Set([sessions.length]));
  });

  it("a stop mid-batch: N moved, the rest untouched and listed, undo restores the N", async () => {
    const { sessions, request } = await store(150);
    const bytes = new Map(sessions.map((s) => [s.path, readFileSync(s.path)]));
    const { control } = stopAfter(10);
    const result = await softDelete(request, engine, control);

    expect(result.moved).toHaveLength(10);
    expect(result.stopped).toEqual({ after: 10, of: 150 });
    expect(result.skipped).toHaveLength(140);
    expect(new Set(result.skipped.map((s) => s.reason))).toEqual(new Set([STOPPED_REASON]));
    const moved = new Set(result.moved.map((m) => m.path));
    for (const s of sessions) expect(existsSync(s.path)).toBe(!moved.has(s.path));
    // Nothing half done: recovery finds no open intent, the audit says partial.
    expect(recover(engine)).toEqual([]);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({
      operationId: result.operationId,
      result: "partial",
    });

    const entries = listTrash(engine).entries.filter(
      (e) => e.state === "in-trash" && e.entryId.startsWith(`${result.operationId}:`),
    );
    expect(entries).toHaveLength(10);
    const restored = await restore(
      entries.map((e) => e.entryId),
      engine,
    );
    expect(restored.done).toHaveLength(10);
    for (const s of sessions) expect(readFileSync(s.path).equals(bytes.get(s.path)!)).toBe(true);
  });

  it("a stop between batches leaves the later ones without an intent", async () => {
    const { sessions, request } = await store(140);
    const { control } = stopAfter(64);
    const result = await softDelete(request, engine, control);
    expect(result.moved).toHaveLength(64);
    expect(result.stopped).toEqual({ after: 64, of: 140 });
    expect(result.skipped).toHaveLength(76);
    expect(recover(engine)).toEqual([]);
    expect(sessions.filter((s) => existsSync(s.path))).toHaveLength(76);
  });

  it("a stop before the first item moves nothing and leaves no operation", async () => {
    const { sessions, request } = await store(5);
    const result = await softDelete(request, engine, { stopRequested: () => true });
    expect(result.moved).toEqual([]);
    expect(result.operationId).toBeUndefined();
    expect(result.stopped).toEqual({ after: 0, of: 5 });
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
    expect(recover(engine)).toEqual([]);
  });

  it("the desktop trash takes a batch at once: what it took is recorded as moved, never half", async () => {
    const { sessions, request } = await store(100, "trash");
    const { control } = stopAfter(3);
    const result = await softDelete(request, engine, control);
    // The first batch (64) went to the trash in one call before the stop could be heard.
    expect(result.moved).toHaveLength(64);
    expect(result.moved.every((m) => m.target === "system-trash")).toBe(true);
    expect(result.stopped).toEqual({ after: 64, of: 100 });
    expect(sessions.filter((s) => existsSync(s.path))).toHaveLength(36);
    expect(recover(engine)).toEqual([]);
  });
});
