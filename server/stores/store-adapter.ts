// The one interface every store kind's adapter implements: given a root, find the session units and
// describe each as a SessionRecord (size, times, message count, namespace, warnings, bundle).
// pi's adapter is the incremental file scanner (server/scan/scanner.ts), built for stores of
// 100,000 files; every other kind plugs in here.
import type { ScanProblem } from "../../shared/scan-report.js";
import type { SessionRecord, StoreKind } from "../../shared/session-record.js";

export interface StoreScan {
  records: SessionRecord[];
  /** Things in the store that are not sessions we can use: reported, never followed or deleted. */
  problems: ScanProblem[];
}

export interface StoreAdapter {
  kind: Exclude<StoreKind, "pi">;
  /** How a session unit is found and measured under `root`. */
  scan(root: string): StoreScan;
}

/** Loaded on demand, so a scan of pi stores alone never pays for the others (nor for zod). */
export async function storeAdapter(kind: StoreAdapter["kind"]): Promise<StoreAdapter> {
  if (kind === "agentsh") {
    const { scanAgentshRoot } = await import("./agentsh/agentsh-store.js");
    return { kind, scan: scanAgentshRoot };
  }
  if (kind === "claude") {
    const { scanClaudeRoot } = await import("./claude/claude-store.js");
    return { kind, scan: scanClaudeRoot };
  }
  const { scanWorkspaceRoot } = await import("./workspace/workspace-store.js");
  return { kind, scan: scanWorkspaceRoot };
}
