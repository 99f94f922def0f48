// Progress reports: what the dashboard's progress bar is driven by.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScanProgress } from "../../shared/scan-report.js";
import { scanStores } from "./scanner.js";
import { piStores } from "../../test-support/pi-stores.js";

function storeWith(files: number): { root: string; bytes: number } {
  const root = mkdtempSync(join(tmpdir(), "sr-progress-"));
  const folder = join(root, "--work-app--");
  mkdirSync(folder);
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const id = `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`;
    const text = `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app" })}\n${"x".repeat(i)}\n`;
    writeFileSync(join(folder, `2026-01-01T00-00-00-000Z_${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  return { root, bytes };
}

describe("scan progress", () => {
  it("counts files and bytes up to the totals and ends with one 'done' report", async () => {
    const { root, bytes } = storeWith(40);
    const reports: ScanProgress[] = [];
    await scanStores({ stores: piStores(root), onProgress: (p) => reports.push(p), progressIntervalMs: 0 });

    const reading = reports.filter((r) => r.phase === "reading");
    expect(reading).toHaveLength(40);
    expect(reading.map((r) => r.filesDone)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const r of reading) {
      expect(r.filesTotal).toBe(40);
      expect(r.bytesTotal).toBe(bytes);
      expect(r.bytesDone).toBeLessThanOrEqual(bytes);
    }
    expect(reading.every((r, i) => i === 0 || r.bytesDone >= reading[i - 1]!.bytesDone)).toBe(true);
    expect(reports.at(-1)).toEqual({
      phase: "done",
      filesDone: 40,
      filesTotal: 40,
      bytesDone: bytes,
      bytesTotal: bytes,
    });
    expect(reports.filter((r) => r.phase === "done")).toHaveLength(1);
  });

  it("throttles reports to the interval but always sends the final one", async () => {
    const { root } = storeWith(30);
    const reports: ScanProgress[] = [];
    await scanStores({
      stores: piStores(root),
      onProgress: (p) => reports.push(p),
      progressIntervalMs: 60_000,
    });
    // One walking report may pass the throttle first; everything else waits for the interval.
    expect(reports.length).toBeLessThanOrEqual(2);
    expect(reports.at(-1)?.phase).toBe("done");
  });
});
