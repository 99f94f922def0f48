// agentsh's adapter: one folder per session directly in its root, measured by what is inside and
// moved as one unit.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";
import { agentshDefaultRoot } from "./location.js";

export const agentshAdapter: StoreAdapter = {
  kind: "agentsh",
  // A session's folder and the folders in it.
  watchDepth: 2,
  // `~/.agentsh/sessions`.
  defaultStores: (env) => ({ stores: [{ root: agentshDefaultRoot(env), label: "agentsh's store" }] }),
  isStore: existsSync,
  isSessionPlace: (root, path) => dirname(path) === root,
  load: async () => {
    const { scanAgentshRoot } = await import("./agentsh-store.js");
    return { scan: scanAgentshRoot };
  },
};
