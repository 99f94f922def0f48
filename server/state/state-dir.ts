// Where session-retention keeps its own files: <agentDir>/session-retention/, shared by the CLI,
// the dashboard and the pi extension.
import { join } from "node:path";
import { resolveAgentDir } from "../stores/pi/locations.js";

export interface StatePaths {
  dir: string;
  scanCache: string;
  demoStore: string;
}

export function statePaths(env: NodeJS.ProcessEnv = process.env): StatePaths {
  const dir = join(resolveAgentDir(env), "session-retention");
  return { dir, scanCache: join(dir, "scan-cache.json"), demoStore: join(dir, "demo", "sessions") };
}
