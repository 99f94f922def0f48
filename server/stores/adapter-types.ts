// The one interface every store kind's adapter implements: given a root, find the session units and
// describe each as a SessionRecord (size, times, message count, namespace, warnings, bundle) — and,
// where the agent has them, its own signs of a live session and its own retention. The registry
// that loads the adapters is store-adapter.ts.
import type { ExternalSweep } from "../../shared/plan.js";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { SessionRecord, StoreKind } from "../../shared/session-record.js";
import type { TrashEntry } from "../../shared/trash.js";

export interface StoreScan {
  records: SessionRecord[];
  /** Things in the store that are not sessions we can use: reported, never followed or deleted. */
  problems: ScanProblem[];
}

export interface SweptAgain {
  message: string;
  keepable: boolean;
}

export interface StoreAdapter {
  kind: Exclude<StoreKind, "pi">;
  /** How a session unit is found and measured under `root`. */
  scan(root: string): StoreScan;
  /**
   * The scan of `root` after a watcher saw `changed` (paths under it) since `previous`, its last
   * scan, made from `previous` by measuring again only what those paths touch — or undefined when
   * a change is not one it can place that way; then `scan` runs. Without it, every change scans
   * the whole store.
   */
  rescanChanged?(root: string, previous: StoreScan, changed: Iterable<string>): StoreScan | undefined;
  /**
   * Sessions the agent's running processes use that no open file shows (Claude Code closes its
   * transcript between writes): id → how we know. Open files and the grace window apply to every kind.
   */
  liveSessions?(root: string, sessions: readonly SessionRecord[]): Map<string, string>;
  /** The agent's own retention: what it will delete for good in this store next, if anything. */
  externalSweep?(root: string, sessions: readonly SessionRecord[], now: Date): ExternalSweep | undefined;
  /**
   * After a restore: why the agent's own retention would delete the session again, if it would, and
   * whether `keep` can stop it (it can where the agent judges the file time, which `keep` refreshes).
   */
  sweptAgain?(entry: TrashEntry, now: Date): SweptAgain | undefined;
  /**
   * How the deletion engine takes this store's sessions: "rename" (the default: each part is
   * renamed into the trash) or "link" (each part hard-linked into the quarantine, then removed by
   * the agent's own delete). What a move needs is checked by that way before anything moves.
   */
  moveWay?: StoreMoveRule["way"];
  /** Why none of this store's sessions can be moved now (the agent's own tool is missing), if so. */
  moveBlocked?(env: NodeJS.ProcessEnv): string | undefined;
}

/** How a store's sessions are moved, and why they cannot be now, if so. */
export interface StoreMoveRule {
  way: "rename" | "link";
  blocked?: string;
}
