// Recovery of a hand-over (handover.ts) waits for an agent's delete a killed process left running
// only where one can have started: after every link of the item was made. The custody here is a
// recording stand-in for an agent's side (the engine's decision of when to wait is what is tested;
// the real Codex wait is in server/stores/codex/codex-custody.test.ts, and the whole hand-over runs
// with the real `codex` in codex-crash-recovery.test.ts).
import { linkSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TrashItem } from "../../shared/trash.js";
import type { Custody } from "../stores/adapter-types.js";
import { recoverHandOver } from "./handover.js";
import { pathExists } from "./movers.js";

function recordingCustody() {
  const waitedFor: string[] = [];
  const custody: Custody = {
    takes: () => true,
    blocked: () => undefined,
    indexLines: () => [],
    remove: () => ({ ok: true }),
    proveGone: () => [],
    awaitRunning: (item) => void waitedFor.push(item.originalPath),
    indexRestore: () => ({ put() {}, close() {} }),
  };
  return { custody, waitedFor };
}

/** An item journaled for a hand-over: its file in the store, its quarantine copy's path beside. */
function intent(root: string, name: string): TrashItem {
  mkdirSync(join(root, "store"), { recursive: true });
  const originalPath = join(root, "store", name);
  writeFileSync(originalPath, "{}\n");
  return {
    id: name,
    originalPath,
    namespace: "/",
    storeRoot: join(root, "store"),
    storeKind: "codex",
    sizeBytes: 3,
    fingerprint: { dev: 0, ino: 0, size: 3, mtimeNs: "0" },
    target: "quarantine",
    location: join(root, "quarantine", "op", `1-${name}`),
    sidecars: [],
    deletedAt: new Date(0).toISOString(),
  };
}

describe("recovery of an interrupted hand-over", () => {
  it("waits for the agent's delete only where every link was made, and undoes both", () => {
    const root = mkdtempSync(join(tmpdir(), "sr-handover-"));
    const { custody, waitedFor } = recordingCustody();
    // An intent the kill never reached: no link, so no delete of it can be running.
    const untouched = intent(root, "a.jsonl");
    // One whose link was made: its delete may have been started and outlive our process.
    const linked = intent(root, "b.jsonl");
    mkdirSync(join(root, "quarantine", "op"), { recursive: true });
    linkSync(linked.originalPath, linked.location!);

    expect(recoverHandOver(untouched, custody, process.env)).toBe("rolled-back");
    expect(recoverHandOver(linked, custody, process.env)).toBe("rolled-back");
    expect(waitedFor).toEqual([linked.originalPath]);
    // Both stay in place, and our link is gone with its emptied folder.
    expect([untouched.originalPath, linked.originalPath].every(pathExists)).toBe(true);
    expect(pathExists(linked.location!)).toBe(false);
    expect(pathExists(join(root, "quarantine", "op"))).toBe(false);
  });
});
