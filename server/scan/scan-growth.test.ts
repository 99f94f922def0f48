// The one rule for which scans are recorded in the growth history (scanner.ts's GrowthRecording):
// the entry point itself, then a scan by each kind of caller, each on a real store in a temp folder,
// checked by the growth file it leaves — or does not.
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGrowth, growthFile } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { writeSession } from "../../test-support/pi-store.js";
import { runCli } from "../cli/main.js";
import { gatherPlanInputs } from "../plan/plan-inputs.js";
import { collectMetrics } from "../report/metrics.js";
import { scan } from "./scanner.js";
import { piStores } from "../../test-support/pi-stores.js";

/** A pi store of its own (so each test has its own growth history) with two sessions. */
function store() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-growth-rule-")));
  const first = writeSession(root, "/work/app", 1);
  writeSession(root, "/work/app", 2);
  return { root, firstId: first.getSessionId() };
}

/** The growth history of that one pi store in the state dir every command uses. */
const historyOf = (root: string) => growthFile(statePaths().dir, [{ kind: "pi", root }]);

async function cli(...argv: string[]) {
  const out: string[] = [];
  const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: () => {} });
  return { status, out: out.join("") };
}

describe("the entry point: scan(stores, { growth })", () => {
  it("records a point for exactly the scanned stores when asked to, with what the scan found", async () => {
    const { root } = store();
    const stateDir = mkdtempSync(join(tmpdir(), "sr-growth-state-"));
    const report = await scan(piStores(root), { growth: { recordIn: stateDir } });
    const points = readGrowth(growthFile(stateDir, [{ kind: "pi", root }]));
    expect(points.at(-1)).toEqual(
      expect.objectContaining({ bytes: report.summary.totalBytes, count: report.summary.sessionCount }),
    );
  });

  it("read-only: the same scan, and no history written", async () => {
    const { root } = store();
    const report = await scan(piStores(root), { growth: "read-only" });
    expect(report.summary.sessionCount).toBe(2);
    expect(existsSync(historyOf(root))).toBe(false);
  });

  it("a state dir it cannot write never stops the scan", async () => {
    const { root } = store();
    // A file where the state folder should be: nothing can be written under it.
    const notADir = join(mkdtempSync(join(tmpdir(), "sr-growth-state-")), "file");
    writeFileSync(notADir, "");
    const report = await scan(piStores(root), { growth: { recordIn: notADir } });
    expect(report.summary.sessionCount).toBe(2);
  });
});

describe("each kind of caller records as the rule says", () => {
  it("`scan` (asked for, to see the stores) records", async () => {
    const { root } = store();
    expect((await cli("scan", "--root", root, "--json")).status).toBe(0);
    expect(readGrowth(historyOf(root)).at(-1)?.count).toBe(2);
  });

  it("a plan's look (plan, clean, the dashboard, pi, the engine: gatherPlanInputs) records", async () => {
    const { root } = store();
    await gatherPlanInputs({ flagStores: piStores(root) });
    expect(readGrowth(historyOf(root)).at(-1)?.count).toBe(2);
  });

  it("`status` (run unasked, from prompts and scripts) does not", async () => {
    const { root } = store();
    const { status } = await cli("status", "--root", root);
    expect(status).toBeLessThan(3);
    expect(existsSync(historyOf(root))).toBe(false);
  });

  it("`protect` (a look-up of the sessions it names) does not", async () => {
    const { root, firstId } = store();
    expect((await cli("protect", "--root", root, firstId)).status).toBe(0);
    expect(existsSync(historyOf(root))).toBe(false);
  });

  it("the Prometheus metrics record: a machine that only writes the textfile needs the forecast's history", async () => {
    const { root } = store();
    expect(await collectMetrics({ stores: piStores(root), config: {} })).toContain("session_retention_bytes");
    expect(readGrowth(historyOf(root)).at(-1)?.count).toBe(2);
  });
});
