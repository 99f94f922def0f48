// Sandbox workspaces' adapter: one folder per session directly in the root, with its
// `.metadata.json`; moved as one unit.
import { dirname } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";

export const workspaceAdapter: StoreAdapter = {
  kind: "workspace",
  // The workspace folders themselves: their metadata file is what a scan reads.
  watchDepth: 1,
  isSessionPlace: (root, path) => dirname(path) === root,
  load: async () => {
    const { scanWorkspaceRoot } = await import("./workspace-store.js");
    return { scan: scanWorkspaceRoot };
  },
};
