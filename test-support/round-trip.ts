// A session's trip through the real deletion engine, for an adapter's tests, whatever its agent:
// picked by path with the ids and fingerprints a scan gives (as a preview would), moved, checked
// gone with nothing else touched, restored, and checked back byte for byte and time for time.
import { existsSync } from "node:fs";
import { expect } from "vitest";
import type { StoreKind } from "../shared/session-record.js";
import { restore, softDelete } from "../server/delete/deletion-engine.js";
import { scanStores } from "../server/scan/scanner.js";
import { fileTimes, insideAny, snapshotTree, treeChanges, without } from "./tree-snapshot.js";

/** Who moves and restores: the CLI. */
export const engine = { actor: "cli" as const };

/** The trip's helpers for the stores of one kind. */
export function tripsOf(kind: StoreKind) {
  const storesOf = (root: string) => [{ kind, root }];

  /** A hand selection of `chosen` (by path), each with the id and fingerprint a scan of the store gives now. */
  async function selection(root: string, chosen: ReadonlyArray<{ path: string }>) {
    const { sessions } = await scanStores({ stores: storesOf(root) });
    return {
      items: chosen.map(({ path }) => {
        const record = sessions.find((r) => r.path === path)!;
        return { id: record.id, fingerprint: record.fingerprint };
      }),
      stores: storesOf(root),
      via: "selection" as const,
    };
  }

  /**
   * Moves `chosen` with the real engine, checks that exactly their files and bundles left `home`
   * and nothing else in it changed (the agent's own files beside them), restores the operation and
   * checks every byte and time is back.
   */
  async function roundTrip(
    store: { root: string; home: string },
    chosen: ReadonlyArray<{ path: string; bundle: readonly string[]; sizeBytes: number }>,
  ) {
    const parts = chosen.flatMap((s) => [s.path, ...s.bundle]);
    const moved = insideAny(parts);
    const before = snapshotTree([store.home]);
    const times = fileTimes(store.home);

    const result = await softDelete(await selection(store.root, chosen), engine);
    expect(result.skipped).toEqual([]);
    expect(result.moved.map((m) => m.path).sort()).toEqual(chosen.map((s) => s.path).sort());
    expect(result.bytesFreed).toBe(chosen.reduce((total, s) => total + s.sizeBytes, 0));
    expect(parts.filter((part) => existsSync(part))).toEqual([]);
    expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);

    const back = await restore([result.operationId!], engine);
    expect(back.skipped).toEqual([]);
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
    expect(fileTimes(store.home)).toEqual(times);
    return result;
  }

  return { storesOf, selection, roundTrip };
}
