// `session-retention serve`: the dashboard on 127.0.0.1. Uses the real pi store when there is one,
// else a generated demo store (so a first run shows a populated dashboard, and says so).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { DataSource, PolicyStatus, SummaryResponse } from "../../shared/api.js";
import { quotaState } from "../../shared/quota.js";
import { ensureDemoStore } from "../demo/demo-store.js";
import { type ListeningServer, listenOnLoopback, PortInUseError } from "../http/listen.js";
import { checkRoot, UnusableRootError } from "../scan/check-root.js";
import { scanStores } from "../scan/scanner.js";
import { type ConfigStatus, loadConfig, rootOf } from "../state/config-file.js";
import { statePaths } from "../state/state-dir.js";
import { CONFIG_FLAGS, configOptions } from "./config-command.js";
import { UsageError } from "./errors.js";
import { type FolderStore, resolveStores } from "../scan/resolve-roots.js";

export const SERVE_HELP = `Usage: session-retention serve [options]

Runs the dashboard on http://127.0.0.1 (never on other interfaces).

Options:
  --port N       port to listen on (default 4178; 0 picks a free one)
  --root DIR     show this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR  show this store (KIND: pi, agentsh, workspace) instead (repeatable)
  --config FILE  use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE  override one setting while the dashboard runs (repeatable)
  --no-open      do not open a browser (the URL is printed either way)
  -h, --help     this help

Without --root or a configured sessionDir, and with no pi store on this machine, a demo store is
generated in <agentDir>/session-retention/demo and shown, marked as such.`;

const DEFAULT_PORT = 4178;

async function chooseSource(
  flags: { roots: string[]; stores: string[] },
  config: ConfigStatus,
): Promise<{ roots: string[]; folderStores: FolderStore[]; source: DataSource; notes: string[] }> {
  const configured = rootOf(config);
  // A store the user named — by flag or in the config — must be used or refused, never swapped for a demo.
  if (
    flags.roots.length > 0 ||
    flags.stores.length > 0 ||
    configured.sessionDir !== undefined ||
    configured.stores
  )
    return { ...resolveStores(flags, process.env, configured), source: { kind: "pi" } };
  try {
    return { ...resolveStores(flags, process.env, configured), source: { kind: "pi" } };
  } catch (error) {
    if (!(error instanceof UnusableRootError)) throw error;
    const demo = statePaths().demoStore;
    await ensureDemoStore(demo);
    return {
      roots: [checkRoot(demo)],
      folderStores: [],
      notes: [],
      source: {
        kind: "demo",
        note: `No pi sessions found at ${error.root}. Showing a generated demo store in ${demo}.`,
      },
    };
  }
}

export async function runServe(
  args: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: String(DEFAULT_PORT) },
      root: { type: "string", multiple: true, default: [] },
      store: { type: "string", multiple: true, default: [] },
      ...CONFIG_FLAGS,
      "no-open": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(SERVE_HELP);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port wants 0–65535, got "${values.port}"`);

  const configOptionsInUse = configOptions(values);
  const { roots, folderStores, source, notes } = await chooseSource(
    { roots: values.root, stores: values.store },
    loadConfig(configOptionsInUse),
  );
  for (const note of notes) io.stderr(`note: ${note}`);
  if (source.note) io.stdout(source.note);
  const cacheFile = statePaths().scanCache;
  let running: Promise<SummaryResponse> | undefined;
  /** Concurrent requests share one scan. */
  const getSummary = () => {
    running ??= scanStores({ roots, folderStores, cacheFile, metaDir: statePaths().sessionsMeta })
      .then(({ scannedAt, stores, summary, namespaces, problems }) => ({
        source,
        // Read on every scan, so an edit to the file shows on the next refresh.
        policy: policyStatus(loadConfig(configOptionsInUse), summary),
        scannedAt,
        stores,
        summary,
        namespaces,
        problems,
      }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  await getSummary(); // warm the cache before the first page load

  const webRoot = fileURLToPath(new URL("../../web/", import.meta.url));
  const haveWeb = existsSync(webRoot);
  if (!haveWeb) io.stderr(`note: ${webRoot} is missing — run \`npm run build\`; only the API is served.`);
  let server: ListeningServer;
  try {
    server = await listenOnLoopback(port, { getSummary, ...(haveWeb ? { webRoot } : {}) });
  } catch (error) {
    if (error instanceof PortInUseError) throw new UsageError(error.message);
    throw error;
  }
  io.stdout(`session-retention dashboard: http://127.0.0.1:${server.port}/`);
  const stop = () => void server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await server.closed;
  return 0;
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
