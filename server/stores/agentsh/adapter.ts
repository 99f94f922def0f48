// agentsh's adapter: one folder per session directly in its root, measured by what is inside and
// moved as one unit.
import { dirname } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";

export const agentshAdapter: StoreAdapter = {
  kind: "agentsh",
  // A session's folder and the folders in it.
  watchDepth: 2,
  isSessionPlace: (root, path) => dirname(path) === root,
  load: async () => {
    const { scanAgentshRoot } = await import("./agentsh-store.js");
    return { scan: scanAgentshRoot };
  },
};
