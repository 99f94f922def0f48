// `session-retention status`: the quota level and mode in one line, for shell prompts and scripts.
// Exit status follows the monitoring-plugin convention, so it drops into existing checks.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import {
  agentQuotaStates,
  describeQuota,
  higherLevel,
  type QuotaLevel,
  quotaState,
} from "../../shared/quota.js";
import { visible } from "../../shared/visible-text.js";
import { UserError } from "../errors.js";
import { scan } from "../scan/scanner.js";
import { resolveStores } from "../scan/resolve-roots.js";
import { adapterOf, externalSweepsOf } from "../stores/store-adapter.js";
import { summarizeAgents } from "../../shared/scan-summary.js";
import { type ConfigStatus, loadConfig, rootOf } from "../config/config-file.js";
import { statePaths } from "../state/state-dir.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions } from "./config-command.js";
import type { CliIo } from "./io.js";
import { AGENT_LABELS, STORE_KINDS, type StoreKind } from "../../shared/store-kinds.js";
import { storeFlagsOf } from "./store-flags.js";
import { notePiWithoutExtension, piWithoutExtension } from "./pi-notice.js";
import { flagsIn, withOptionHint } from "./suggest.js";

export const STATUS_HELP = `Usage: session-retention status [options]

Prints the quota level and mode in one line, e.g.
  warn · 18.4 GiB of 20.0 GiB (92%) · 1204 of 2000 sessions (60%) · mode warn-only

Options:
  --json            print { level, mode, quota, totalBytes, sessionCount } instead
  --config FILE     use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE   override one setting for this run (repeatable)
  --root DIR        use this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR  use this store (KIND: ${STORE_KINDS.join(", ")}) instead (repeatable)
  -h, --help        this help

Exit status: 0 ok or info (or mode off), 1 warn, 2 critical — the worst of the global quota and
each agent's (quota.agents) —, 3 unknown (invalid config, no store).

Examples:
  session-retention status
  session-retention status --json
  session-retention status --set quota.maxSessionCount=500`;

/**
 * Why there is no level, in the one line: a bad `--set` value is named with what is wrong with it,
 * never blamed on a config file that may not exist (said instead: where it is, or would be).
 */
function invalidConfigLine(config: Extract<ConfigStatus, { ok: false }>): string {
  const path = visible(config.path);
  if (!config.problems.every((p) => p.from !== undefined))
    return `invalid config ${path} (session-retention config check)`;
  const problems = config.problems.map(
    (p) => `${visible(p.from!)}: ${visible(p.path)}: ${visible(p.message)}`,
  );
  return `invalid value on the command line — ${problems.join("; ")} · config file ${existsSync(config.path) ? path : `${path} (none yet)`}`;
}

const EXIT: Record<QuotaLevel, number> = { ok: 0, info: 0, warn: 1, critical: 2 };
const UNKNOWN = 3;

export async function runStatus(args: string[], io: CliIo): Promise<number> {
  try {
    return await status(args, io);
  } catch (thrown) {
    const error = await withOptionHint(thrown, "status", () => flagsIn(STATUS_HELP));
    // Exit 2 means critical here, so every error — bad arguments included — is "unknown".
    if (error instanceof UserError || (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`session-retention: ${visible((error as Error).message)}`);
      return UNKNOWN;
    }
    throw error;
  }
}

async function status(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      json: { type: "boolean", default: false },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(STATUS_HELP);
    return 0;
  }
  const config = loadConfig(configOptions(values));
  if (!config.ok) {
    io.stdout(
      values.json
        ? JSON.stringify({ level: "unknown", problems: config.problems })
        : `unknown · ${invalidConfigLine(config)}`,
    );
    return UNKNOWN;
  }
  const { quota, mode } = config.config;
  const resolved = resolveStores({ stores: storeFlagsOf(values) }, process.env, rootOf(config));
  const { summary, sessions, stores } = await scan(resolved.stores, {
    growth: "read-only",
    cacheDir: statePaths().scanCache,
    topN: 0,
  });
  const state = quotaState(summary.totalBytes, summary.sessionCount, quota);
  // What agents' own retention (Claude Code's, Gemini CLI's) will delete next, whatever the level says.
  const sweeps = await externalSweepsOf(stores, sessions);
  const agentQuotas = agentQuotaStates(summarizeAgents(stores, sessions), quota);
  // Beside the one line (which shell prompts show), not in it: what protects a running pi's session.
  const pis = await piWithoutExtension({
    roots: stores.map((s) => s.root),
    namespaces: sessions.flatMap((s) => (adapterOf(s.store.kind).processes ? [s.namespace] : [])),
  });
  notePiWithoutExtension(pis, io.stderr);
  if (values.json)
    io.stdout(
      JSON.stringify({
        level: state.level,
        mode,
        quota: state,
        totalBytes: summary.totalBytes,
        sessionCount: summary.sessionCount,
        ...(Object.keys(agentQuotas).length > 0 ? { agentQuotas } : {}),
        ...(sweeps.length > 0 ? { externalSweeps: sweeps } : {}),
        ...(pis.length > 0 ? { piWithoutExtension: pis } : {}),
      }),
    );
  else
    io.stdout(
      `${state.level} · ${state.size || state.count ? describeQuota(state) : `${formatBytes(summary.totalBytes)} in ${summary.sessionCount} sessions, no limits set`} · mode ${mode}` +
        Object.entries(agentQuotas)
          .map(([agent, q]) => ` · ${AGENT_LABELS[agent as StoreKind]} ${q.level} (${describeQuota(q)})`)
          .join("") +
        sweeps
          .map(
            (s) =>
              ` · ${AGENT_LABELS[s.agent]} will delete ${s.ids.length} session${s.ids.length === 1 ? "" : "s"} (${formatBytes(s.bytes)}) ${s.when ?? "the next time it runs"}`,
          )
          .join(""),
    );
  // An agent over its own quota is as pressing as the store over the global one.
  const worst = Object.values(agentQuotas).reduce((level, q) => higherLevel(level, q.level), state.level);
  return mode === "off" ? 0 : EXIT[worst];
}
