// Where agentsh keeps its sessions, apart from the adapter that reads them: the gate
// and the store resolution need the path without loading the adapter.
import { homedir } from "node:os";
import { join } from "node:path";

/** agentsh's default store: `~/.agentsh/sessions`. */
export const agentshDefaultRoot = (env: NodeJS.ProcessEnv) =>
  join(env.HOME || homedir(), ".agentsh", "sessions");
