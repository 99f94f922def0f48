// The one interface every store kind's adapter implements: given a root, find the session units and
// describe each as a SessionRecord (size, times, message count, namespace, warnings, sidecars).
// pi's adapter is the incremental file scanner (server/scan/scanner.ts), because its files are read;
// folder stores only need their tree measured, so they plug in here.
import type { ScanProblem } from "../../shared/scan-report.js";
import type { SessionRecord } from "../../shared/session-record.js";

export interface StoreScan {
  records: SessionRecord[];
  /** Things in the store that are not sessions we can use: reported, never followed or deleted. */
  problems: ScanProblem[];
}

export interface FolderStoreAdapter {
  kind: "agentsh" | "workspace";
  /** How a session unit is found and measured under `root`. */
  scan(root: string): StoreScan;
}

/** Loaded on demand, so a scan of pi stores alone never pays for the others (nor for zod). */
export async function folderStoreAdapter(kind: FolderStoreAdapter["kind"]): Promise<FolderStoreAdapter> {
  if (kind === "agentsh") {
    const { scanAgentshRoot } = await import("./agentsh/agentsh-store.js");
    return { kind, scan: scanAgentshRoot };
  }
  const { scanWorkspaceRoot } = await import("./workspace/workspace-store.js");
  return { kind, scan: scanWorkspaceRoot };
}
