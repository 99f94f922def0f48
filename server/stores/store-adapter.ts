// The one interface every store kind's adapter implements: given a root, find the session units and
// describe each as a SessionRecord (size, times, message count, namespace, warnings, bundle) — and,
// where the agent has them, its own signs of a live session and its own retention.
// pi's adapter is the incremental file scanner (server/scan/scanner.ts), built for stores of
// 100,000 files; every other kind plugs in here.
import type { ExternalSweep } from "../../shared/plan.js";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { SessionRecord, StoreKind, StoreRef } from "../../shared/session-record.js";
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
}

/** Loaded on demand, so a scan of pi stores alone never pays for the others (nor for zod). */
export async function storeAdapter(kind: StoreAdapter["kind"]): Promise<StoreAdapter> {
  if (kind === "agentsh") {
    const { scanAgentshRoot } = await import("./agentsh/agentsh-store.js");
    return { kind, scan: scanAgentshRoot };
  }
  if (kind === "claude") {
    const [{ scanClaudeRoot }, { claudeLiveSessions }, { claudeSweep, claudeSweptAgain }] = await Promise.all(
      [
        import("./claude/claude-store.js"),
        import("./claude/claude-live.js"),
        import("./claude/claude-sweep.js"),
      ],
    );
    return {
      kind,
      scan: scanClaudeRoot,
      liveSessions: (root, sessions) => claudeLiveSessions(root, sessions),
      externalSweep: claudeSweep,
      sweptAgain: claudeSweptAgain,
    };
  }
  if (kind === "codex") {
    const { scanCodexRoot } = await import("./codex/codex-store.js");
    return { kind, scan: scanCodexRoot };
  }
  if (kind === "gemini") {
    const [{ scanGeminiRoot }, { geminiLiveSessions }, { geminiSweep, geminiSweptAgain }] = await Promise.all(
      [
        import("./gemini/gemini-store.js"),
        import("./gemini/gemini-live.js"),
        import("./gemini/gemini-sweep.js"),
      ],
    );
    return {
      kind,
      scan: scanGeminiRoot,
      liveSessions: geminiLiveSessions,
      externalSweep: geminiSweep,
      sweptAgain: geminiSweptAgain,
    };
  }
  const { scanWorkspaceRoot } = await import("./workspace/workspace-store.js");
  return { kind, scan: scanWorkspaceRoot };
}

/** What each store's agent will delete on its own next (agents without a retention of their own have none). */
export async function externalSweepsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
  now = new Date(),
): Promise<ExternalSweep[]> {
  const sweeps: ExternalSweep[] = [];
  for (const store of stores) {
    if (store.kind === "pi") continue;
    const sweep = (await storeAdapter(store.kind)).externalSweep?.(store.root, sessions, now);
    if (sweep) sweeps.push(sweep);
  }
  return sweeps;
}

/** Sessions the stores' agents say are live, beyond open files: id → how we know. */
export async function liveSessionsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
): Promise<Map<string, string>> {
  const live = new Map<string, string>();
  for (const store of stores) {
    if (store.kind === "pi") continue;
    for (const [id, how] of (await storeAdapter(store.kind)).liveSessions?.(store.root, sessions) ?? [])
      live.set(id, how);
  }
  return live;
}
