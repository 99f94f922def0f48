// The wizard's choosing logic over a plan, with scripted dialogs (pi's runtime is in extension.test.ts).
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../shared/config.js";
import { evaluatePolicy } from "../shared/policy.js";
import type { SessionRecord } from "../shared/session-record.js";
import { scriptedUi } from "../test-support/pi-runtime.js";
import { cleanWizard, describeResult } from "./clean-wizard.js";

const DAY = 86_400_000;
const now = new Date("2026-11-23T12:00:00Z");

/** Sessions whose rows read the same: same size, age and namespace, and file names that differ only in the middle. */
function twins(): SessionRecord[] {
  return [1, 2, 3].map((n) => ({
    id: `id-${n}`,
    path: `/s/--p--/2026-01-01T00-00-00-000Z_0000000${n}-aaaa-bbbb-cccc-ddddeeeeffff.jsonl`,
    namespace: "/p",
    store: { kind: "pi", root: "/s" },
    sizeBytes: 1000,
    createdAt: new Date(now.getTime() - 300 * DAY).toISOString(),
    modifiedAt: new Date(now.getTime() - 300 * DAY).toISOString(),
    lastUsedAt: new Date(now.getTime() - 300 * DAY).toISOString(),
    fingerprint: { size: 1000, mtimeMs: now.getTime() - 300 * DAY, ino: n, dev: 1 },
    warnings: [],
  })) as unknown as SessionRecord[];
}

describe("cleanWizard", () => {
  it("tells rows apart that read the same, and moves exactly the ones left ticked", async () => {
    const config = ConfigSchema.parse({
      retention: { maxAgeDays: 180, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    });
    const plan = evaluatePolicy({ sessions: twins(), policy: config, mode: config.mode, now });
    expect(plan.candidates).toHaveLength(3);
    const ui = scriptedUi();
    let moved: string[] = [];
    ui.answers.push(
      // Untick the second of the identical rows.
      { select: (options) => options.filter((o) => o.startsWith("[x]"))[1] },
      { select: (options) => options[0] },
      { input: "DELETE" },
    );
    const outcome = await cleanWizard(
      ui.ui,
      plan,
      config,
      async (items) => {
        moved = items.map((i) => i.id);
        return { dryRun: false, moved: [], skipped: [], bytesFreed: 0 };
      },
      now,
    );
    const rows = ui.dialogs[0]!.options!.filter((o) => o.startsWith("[x]"));
    expect(new Set(rows).size).toBe(3);
    expect(rows[1]).toMatch(/ \(2\)$/);
    expect(outcome.kind).toBe("done");
    expect(moved.sort()).toEqual(
      plan.candidates
        .filter((_, i) => i !== 1)
        .map((c) => c.id)
        .sort(),
    );
  });
});

describe("describeResult", () => {
  it("says loudly what an agent's own delete took outside the selection", () => {
    const text = describeResult({
      dryRun: false,
      moved: [],
      skipped: [],
      bytesFreed: 0,
      lost: [
        {
          id: "codex:b",
          path: "/c/sessions/b.jsonl",
          reason: "gone after the agent's own delete of codex:a",
        },
      ],
    });
    expect(text).toMatch(/^WARNING: LOST, NOT IN THE TRASH: \/c\/sessions\/b\.jsonl: gone after/m);
  });
});
