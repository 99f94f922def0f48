// Where session-retention keeps its own files: <agentDir>/session-retention/, shared by the CLI,
// the dashboard and the pi extension. The config file sits beside pi's own settings instead
// (<agentDir>/session-retention.json), where a user looks for it. Everything in the state
// folder is private (server/fs/private-files.ts): it holds every session's path, working
// directory and name, and the dashboard's token.
import { join } from "node:path";
import { resolveAgentDir } from "../stores/pi/locations.js";

export interface StatePaths {
  dir: string;
  /** The config file used when no `--config` is given. */
  configFile: string;
  /** The scan cache folder: the facts store's database, `facts.db` (server/state/facts-store.ts). */
  scanCache: string;
  /** The single cache file of earlier versions: no longer read, removed by `cache clear` (as the per-roots `.cache` files of later ones). */
  legacyScanCache: string;
  demoStore: string;
  /** Manual pins by session id. */
  protectedList: string;
  /** Append-only log of every change. */
  auditLog: string;
  /** Held by every change to what may be deleted: deletions, restores, purges, pins. */
  deletionLock: string;
  /** The trash ledger: one file per operation. */
  trashLedgers: string;
  /** One `<pid>.json` per live pi process that has the extension loaded. */
  activeMarkers: string;
  /** pi's session index (`<uuid>.meta.json` files), beside pi's sessions. */
  sessionsMeta: string;
  /** The default quarantine folder for soft-deleted sessions. */
  quarantine: string;
}

export function statePaths(env: NodeJS.ProcessEnv = process.env): StatePaths {
  const agentDir = resolveAgentDir(env);
  const dir = join(agentDir, "session-retention");
  return {
    dir,
    configFile: join(agentDir, "session-retention.json"),
    scanCache: join(dir, "scan-cache"),
    legacyScanCache: join(dir, "scan-cache.json"),
    demoStore: join(dir, "demo", "sessions"),
    protectedList: join(dir, "protected.json"),
    auditLog: join(dir, "audit.jsonl"),
    deletionLock: join(dir, "deletion.lock"),
    trashLedgers: join(dir, "trash"),
    activeMarkers: join(dir, "active"),
    sessionsMeta: join(agentDir, "sessions-meta"),
    quarantine: join(agentDir, "session-trash"),
  };
}
