// What the dashboard's routes do, as plain functions over the stores the server was started with:
// the summary (a shared incremental scan) and the changes it may ask for. The routes only parse,
// validate and answer; the CLI and the extension call the same state modules.
import type {
  DataSource,
  PolicyStatus,
  ProtectRequest,
  ProtectResponse,
  SummaryResponse,
} from "../../shared/api.js";
import { quotaState } from "../../shared/quota.js";
import type { FolderStore } from "../scan/resolve-roots.js";
import { scanStores } from "../scan/scanner.js";
import { type ConfigStatus, type LoadConfigOptions, loadConfig } from "../state/config-file.js";
import { readPins, setProtection } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { UnknownIdsError } from "./app.js";

export interface DashboardStores {
  roots: readonly string[];
  folderStores: readonly FolderStore[];
  source: DataSource;
  config: LoadConfigOptions;
}

/** Quota and mode for the dashboard; an invalid config means read-only and no quota to show. */
export function policyStatus(
  config: ConfigStatus,
  totals: { totalBytes: number; sessionCount: number },
): PolicyStatus {
  if (!config.ok)
    return { configPath: config.path, source: "invalid", problems: config.problems, readOnly: true };
  return {
    configPath: config.path,
    source: config.source,
    problems: [],
    mode: config.config.mode,
    quota: quotaState(totals.totalBytes, totals.sessionCount, config.config.quota),
    readOnly: false,
  };
}

export function createDashboardService(stores: DashboardStores) {
  const paths = statePaths();
  const scan = () =>
    scanStores({
      roots: stores.roots,
      folderStores: stores.folderStores,
      cacheFile: paths.scanCache,
      metaDir: paths.sessionsMeta,
    });

  let running: Promise<SummaryResponse> | undefined;
  /** Concurrent requests share one scan. */
  const getSummary = () => {
    running ??= scan()
      .then(({ scannedAt, stores: scanned, summary, namespaces, problems }) => ({
        source: stores.source,
        // Read on every scan, so an edit to the file shows on the next refresh.
        policy: policyStatus(loadConfig(stores.config), summary),
        scannedAt,
        stores: scanned,
        summary,
        namespaces,
        problems,
      }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  /** All or nothing: one id that names no session (and, to unpin, no pin) changes nothing. */
  const protect = async ({ ids, protect: on }: ProtectRequest): Promise<ProtectResponse> => {
    const byId = new Map((await scan()).sessions.map((s) => [s.id, s]));
    const pins = new Map(readPins(paths.protectedList).map((pin) => [pin.id, pin]));
    const targets = [];
    const unknown = [];
    for (const id of new Set(ids)) {
      const found = byId.get(id) ?? (on ? undefined : pins.get(id));
      if (found) targets.push({ id, path: found.path });
      else unknown.push(id);
    }
    if (unknown.length > 0) throw new UnknownIdsError(unknown);
    const { changed, unchanged } = setProtection(targets, on, "ui", paths);
    return { changed: changed.map((t) => t.id), unchanged: unchanged.map((t) => t.id) };
  };

  return { getSummary, protect };
}
