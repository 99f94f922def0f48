// When a look walks the stores: a pin's or a saved policy's look need not (the watcher keeps the
// stores current), but it must never overtake a walk — a rescan asked for, the reconciliation, a
// change of ours — that is under way or owed. Over a real watch on an empty folder, with a gather
// the test answers.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GatherOptions, PlanInputs } from "../plan/plan-inputs.js";
import { createLooks } from "./looks.js";

const HOUR = 3_600_000;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Looks over a watched empty store; each gather waits until the test answers it. */
function looksOver(followers = 0) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-looks-")));
  const asked: Array<{ walks: boolean; answer: () => Promise<void> }> = [];
  const inputs = () =>
    ({ report: { stores: [{ kind: "pi", root }], sessions: [], problems: [] } }) as unknown as PlanInputs;
  const looks = createLooks({
    gather: (options: Pick<GatherOptions, "changed">) =>
      new Promise<PlanInputs>((resolve) => {
        asked.push({
          // A look given no changed path walks every store; one given an empty set walks none.
          walks: options.changed === undefined,
          answer: async () => {
            resolve(inputs());
            await new Promise((r) => setTimeout(r, 5));
          },
        });
      }),
    watch: { stores: [{ kind: "pi", root }], metaDir: join(root, "meta") },
    freshMs: HOUR,
    reconcileMs: HOUR,
    followers: () => followers,
    onLook: () => {},
    onWatch: () => {},
  });
  cleanups.push(() => {
    looks.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { looks, asked };
}

/** The first look, taken and set. */
async function started(followers = 0) {
  const over = looksOver(followers);
  const first = over.looks.gather();
  await over.asked[0]!.answer();
  await first;
  return over;
}

describe("a look after a pin or a saved policy", () => {
  it("walks no store while the stores are watched and nothing else changed", async () => {
    const { looks, asked } = await started();
    looks.changedBesideStores();
    const next = looks.gather();
    expect(asked.at(-1)!.walks).toBe(false);
    await asked.at(-1)!.answer();
    await next;
  });

  it("walks when a change of ours came before it and no look was taken since", async () => {
    const { looks, asked } = await started();
    looks.changed(); // a delete: nobody followed, no look taken yet
    looks.changedBesideStores();
    void looks.gather();
    expect(asked.at(-1)!.walks).toBe(true);
  });

  it("walks when it overtakes a rescan under way, which it drops", async () => {
    const { looks, asked } = await started(1);
    expect(looks.startScan().started).toBe(true);
    expect(asked.at(-1)!.walks).toBe(true);
    const rescan = asked.at(-1)!;
    looks.changedBesideStores(); // a page follows: the pin's look is taken at once
    expect(asked.at(-1)).not.toBe(rescan);
    expect(asked.at(-1)!.walks).toBe(true);
  });

  it("is replaced by a walking look when a rescan is asked for while it runs", async () => {
    const { looks, asked } = await started(1);
    looks.changedBesideStores();
    expect(asked.at(-1)!.walks).toBe(false);
    expect(looks.startScan().started).toBe(true);
    expect(asked.at(-1)!.walks).toBe(true);
    // And once that walk is set, a pin's look walks nothing again.
    await asked.at(-1)!.answer();
    await looks.gather();
    looks.changedBesideStores();
    expect(asked.at(-1)!.walks).toBe(false);
  });

  it("owes nothing once a walk's look is set, after a rescan that a change of ours overtook", async () => {
    const { looks, asked } = await started(0);
    looks.startScan();
    const rescan = asked.at(-1)!;
    looks.changed(); // a restore while the rescan runs: the rescan's look is dropped
    const next = looks.gather();
    expect(asked.at(-1)!.walks).toBe(true);
    await rescan.answer();
    await asked.at(-1)!.answer();
    await next;
    looks.changedBesideStores();
    void looks.gather();
    expect(asked.at(-1)!.walks).toBe(false);
  });
});
