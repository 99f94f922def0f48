// `session-retention serve`: the dashboard on 127.0.0.1. Uses the real pi store when there is one,
// else a generated demo store (so a first run shows a populated dashboard, and says so).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { DataSource } from "../../shared/api.js";
import { recover } from "../delete/deletion-engine.js";
import { visible } from "../../shared/visible-text.js";
import { ensureDemoStore } from "../demo/demo-store.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { newToken } from "../http/guard.js";
import { limitHeapGrowth } from "../http/heap.js";
import {
  describeShown,
  forgetInstance,
  openWithDesktop,
  recordInstance,
  runningInstance,
  shownStores,
  showsSame,
  writeRedirectFile,
} from "../http/instance.js";
import { type ListeningServer, listenOnLoopback, PortInUseError } from "../http/listen.js";
import { checkRoot, UnusableRootError } from "../scan/check-root.js";
import { type ConfigStatus, loadConfig, rootOf, withConfigProblems } from "../config/config-file.js";
import { LockedError } from "../fs/lock-file.js";
import { statePaths } from "../state/state-dir.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions } from "./config-command.js";
import { UsageError } from "./errors.js";
import { type NamedStore, resolveStores } from "../scan/resolve-roots.js";
import { storeFlagsOf } from "./store-flags.js";
import { STORE_KINDS, type StoreRef } from "../../shared/session-record.js";
import { SESSION_DIR_KIND } from "../../shared/store-kinds.js";

export const SERVE_HELP = `Usage: session-retention serve [options]

Runs the dashboard on http://127.0.0.1 (never on other interfaces).

Options:
  --port N       port to listen on (default 4178; 0 picks a free one)
  --root DIR     show this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR  show this store (KIND: ${STORE_KINDS.join(", ")}) instead (repeatable)
  --config FILE  use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE  override one setting while the dashboard runs (repeatable)
  --no-open      do not open a browser (the address, with its token, is printed either way)
  --no-watch     rescan every few seconds while a page is open instead of following changes
                 as they happen (stores whose file system raises no change events)
  -h, --help     this help

When a dashboard already runs for the same stores and config, its address is printed (exit 0).
When one runs for other stores, that is said and nothing starts (exit 2), unless --port names
another port: then a second dashboard starts there.

Without --root or a configured sessionDir, and with no pi store on this machine, a demo store is
generated in <agentDir>/session-retention/demo and shown, marked as such.

Examples:
  session-retention serve
  session-retention serve --port 0 --no-open
  session-retention serve --store codex:~/.codex`;

const DEFAULT_PORT = 4178;

async function chooseSource(
  flags: { stores: NamedStore[] },
  config: ConfigStatus,
): Promise<{ stores: StoreRef[]; source: DataSource; notes: string[] }> {
  const configured = rootOf(config);
  // A store the user named — by flag or in the config — must be used or refused, never swapped for a demo.
  if (flags.stores.length > 0 || configured.sessionDir !== undefined || configured.stores)
    return {
      ...withConfigProblems(config, () => resolveStores(flags, process.env, configured)),
      source: { kind: "pi" },
    };
  try {
    return { ...resolveStores(flags, process.env, configured), source: { kind: "pi" } };
  } catch (error) {
    if (!(error instanceof UnusableRootError)) throw error;
    const demo = statePaths().demoStore;
    await ensureDemoStore(demo);
    return {
      stores: [{ kind: SESSION_DIR_KIND, root: checkRoot(demo) }],
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
      ...STORE_FLAGS,
      ...CONFIG_FLAGS,
      "no-open": { type: "boolean", default: false },
      "no-watch": { type: "boolean", default: false },
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

  const stateDir = statePaths().dir;
  const configOptionsInUse = configOptions(values);
  const config = loadConfig(configOptionsInUse);
  const { stores, source, notes } = await chooseSource({ stores: storeFlagsOf(values) }, config);
  const shows = shownStores(stores, { path: config.path, sets: configOptionsInUse.sets });
  const other = runningInstance(stateDir);
  if (other && showsSame(other, shows)) {
    io.stdout(
      `session-retention dashboard is already running for these stores (pid ${other.pid}): ${other.url}`,
    );
    return 0;
  }
  // Another dashboard shows other stores: opening it would silently show the wrong sessions. An
  // explicit other --port starts a second one; else say what runs and how to go on.
  const explicitPort = args.some((arg) => arg === "--port" || arg.startsWith("--port="));
  if (other && !(explicitPort && port !== other.port)) {
    io.stderr(
      [
        `session-retention: a dashboard is already running (pid ${other.pid}, port ${other.port}) for other stores:`,
        `  it shows    ${visible(describeShown(other.shows!))}`,
        `  you asked   ${visible(describeShown(shows))}`,
        `Open it at the address it printed, stop it (kill ${other.pid}), or start this one on another port (--port 0 picks a free one).`,
      ].join("\n"),
    );
    return 2;
  }
  limitHeapGrowth(); // this process now holds looks at the stores for as long as it runs
  // What a killed run left half done is settled before the first page shows the trash.
  try {
    for (const r of recover({ actor: "ui" }))
      io.stderr(`recovered an interrupted operation: ${visible(r.path)} — ${r.result}: ${visible(r.detail)}`);
  } catch (error) {
    if (!(error instanceof LockedError)) throw error;
    io.stderr(`note: not recovering now: ${error.message}`);
  }
  for (const note of notes) io.stderr(`note: ${visible(note)}`);
  if (source.note) io.stdout(visible(source.note));
  // Watched: the dashboard follows the stores as agents write, and rescans only to reconcile.
  const service = createDashboardService({
    stores,
    source,
    config: configOptionsInUse,
    watch: !values["no-watch"],
    log: (line) => io.stderr(visible(line)),
  });
  const { getSummary } = service;
  await getSummary(); // warm the cache before the first page load

  const webRoot = fileURLToPath(new URL("../../web/", import.meta.url));
  const haveWeb = existsSync(webRoot);
  if (!haveWeb) io.stderr(`note: ${webRoot} is missing — run \`npm run build\`; only the API is served.`);
  const token = newToken();
  let server: ListeningServer;
  try {
    server = await listenOnLoopback(port, { api: service, token, ...(haveWeb ? { webRoot } : {}) });
  } catch (error) {
    if (error instanceof PortInUseError) throw new UsageError(error.message);
    throw error;
  }
  // Stopping is set up before the address is printed: a signal sent as soon as it shows (a test,
  // a supervisor) must still remove the record and the redirect file.
  const stop = () => void server.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // The token travels in the fragment: browsers never send it to a server, log or Referer.
  const url = `http://127.0.0.1:${server.port}/#token=${token}`;
  recordInstance(stateDir, { pid: process.pid, port: server.port, url, shows });
  io.stdout(`session-retention dashboard: ${url}`);
  if (!values["no-open"] && !(await openWithDesktop(writeRedirectFile(stateDir, url))))
    io.stderr("note: could not open a browser here; open the address above.");
  void server.closed.then(() => {
    service.close();
    forgetInstance(stateDir);
  });
  await server.closed;
  return 0;
}
