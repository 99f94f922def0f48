// A Claude Code session's trip through the real deletion engine, for the adapter's tests: picked by
// the ids a scan gives (with the fingerprints that scan shows, as a preview would), moved, checked
// gone with nothing else touched, restored, and checked back byte for byte and time for time.
import { existsSync } from "node:fs";
import { expect } from "vitest";
import { restore, softDelete } from "../server/delete/deletion-engine.js";
import { scanStores } from "../server/scan/scanner.js";
import { fileTimes, insideAny, snapshotTree, treeChanges, without } from "./tree-snapshot.js";

export const engine = { actor: "cli" as const };

export const claudeStores = (root: string) => [{ kind: "claude" as const, root }];

/** A hand selection of `chosen`, each with the fingerprint a scan of the store gives now (its preview). */
export async function selection(root: string, chosen: ReadonlyArray<{ id: string }>) {
  const { sessions } = await scanStores({ stores: claudeStores(root) });
  return {
    items: chosen.map(({ id }) => ({ id, fingerprint: sessions.find((r) => r.id === id)!.fingerprint })),
    stores: claudeStores(root),
    via: "selection" as const,
  };
}

/**
 * Moves `chosen` (by the ids a scan gives) with the real engine, checks that exactly their files and
 * bundles left `home` and nothing else in it changed, restores the operation and checks every byte
 * and time is back.
 */
export async function roundTrip(
  store: { root: string; home: string },
  chosen: ReadonlyArray<{ id: string; path: string; bundle: readonly string[]; sizeBytes: number }>,
) {
  const parts = chosen.flatMap((s) => [s.path, ...s.bundle]);
  const moved = insideAny(parts);
  const before = snapshotTree([store.home]);
  const times = fileTimes(store.home);

  const result = await softDelete(await selection(store.root, chosen), engine);
  expect(result.skipped).toEqual([]);
  expect(result.moved.map((m) => m.id).sort()).toEqual(chosen.map((s) => s.id).sort());
  expect(result.bytesFreed).toBe(chosen.reduce((total, s) => total + s.sizeBytes, 0));
  expect(parts.filter((part) => existsSync(part))).toEqual([]);
  // Nothing else in the Claude folder (nor ~/.claude.json beside it) changed.
  expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);

  const back = await restore([result.operationId!], engine);
  expect(back.skipped).toEqual([]);
  expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
  expect(fileTimes(store.home)).toEqual(times);
  return result;
}
