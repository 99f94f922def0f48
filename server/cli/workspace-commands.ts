// `session-retention prune | touch | repair-metadata`: the sandbox workspace pruning from the
// command line. Pruning asks for the same typed DELETE as `clean` (or --yes without a terminal).
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import { visible } from "../../shared/visible-text.js";
import { resolveStores } from "../scan/resolve-roots.js";
import { parseStoreFlag } from "./store-flags.js";
import { configuredRoot } from "../config/configured-root.js";
import {
  type PruneResult,
  pruneSessions,
  repairSessionMetadata,
  touchSession,
} from "../workspace/workspace-api.js";
import { CONFIG_FLAGS, configOptions } from "./config-command.js";
import { confirmMove } from "./confirm-move.js";
import { parseDuration } from "./duration.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { workspaceAdapter } from "../stores/workspace/adapter.js";

export const PRUNE_HELP = `Usage: session-retention prune --older-than 24h [--store workspace:DIR]… [--dry-run] [--yes]

Soft-deletes sandbox workspaces (<root>/<session_id>/ with .metadata.json) whose updated_at is older
than the duration. Workspaces without valid metadata, and active, pinned or protected ones, are
skipped and said so. One JSON line per decision goes to stderr; a summary to stdout.

Options:
  --older-than D    90min, 24h, 7d, 2w, 2mo
  --store workspace:DIR   the workspace root (repeatable); default: the config's workspace stores
  --dry-run         list the candidates, delete nothing
  --yes             do not ask for DELETE (needed when there is no terminal)
  --json            print one JSON document: per workspace root, the candidates and the result
  --config FILE     the config file (deletion target, protected patterns)

Examples:
  session-retention prune --older-than 7d --dry-run
  session-retention prune --older-than 2w --store workspace:~/sandboxes --yes`;

/** What both metadata writers say of the gate they pass. */
const WRITE_GATE_HELP = `DIR must be a workspace: a folder (not a symlink) in a workspace root the place gate allows —
never /, your home or a folder above it, a system folder, the trash or another agent's store. While
the config is invalid (read-only) nothing is written.

Options:
  --config FILE     the config file (read-only while it is invalid)
  --json            print one JSON document`;

export const TOUCH_HELP = `Usage: session-retention touch DIR [--json] [--config FILE]

Sets updated_at in DIR/.metadata.json to now (creating the file if it is missing or unusable).
${WRITE_GATE_HELP}

Examples:
  session-retention touch ~/sandboxes/019a3f2e
  session-retention touch ~/sandboxes/019a3f2e --json`;

export const REPAIR_HELP = `Usage: session-retention repair-metadata DIR [--dry-run] [--json] [--config FILE]

Rebuilds a missing or corrupt DIR/.metadata.json from the files' times: created_at = the oldest
mtime inside, updated_at = the newest. Valid metadata is left alone. --dry-run says what it would
write and writes nothing.
${WRITE_GATE_HELP}

Examples:
  session-retention repair-metadata ~/sandboxes/019a3f2e --dry-run
  session-retention repair-metadata ~/sandboxes/019a3f2e`;

/** What `prune --json` prints: per workspace root, the preview and the move (null when none ran). */
export interface PruneJson {
  dryRun: boolean;
  roots: Array<{ root: string; preview: PruneResult; result: PruneResult | null }>;
}

function workspaceRoots(flagStores: string[], file: string | undefined): string[] {
  const fromFlags = flagStores.map(parseStoreFlag);
  const wrong = fromFlags.find((s) => s.kind !== workspaceAdapter.kind);
  if (wrong) throw new UsageError(`prune works on workspace stores, got --store ${wrong.kind}:${wrong.root}`);
  const configured = configuredRoot(file !== undefined ? { file } : {});
  const roots =
    fromFlags.length > 0
      ? fromFlags.map((s) => s.root)
      : Array.isArray(configured.stores)
        ? configured.stores.filter((s) => s.kind === workspaceAdapter.kind).map((s) => s.root)
        : [];
  if (roots.length === 0)
    throw new UsageError(
      "no workspace store: pass --store workspace:DIR (or list one in the config's stores)",
    );
  // All of them through the place gate together: one root inside another would let a prune of
  // the outer one move folders out of a workspace of the inner one.
  return resolveStores(
    { stores: roots.map((root) => ({ kind: workspaceAdapter.kind, root })) },
    process.env,
    configured,
  ).stores.map((s) => s.root);
}

export async function runPrune(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      "older-than": { type: "string" },
      store: { type: "string", multiple: true, default: [] },
      "dry-run": { type: "boolean", default: false },
      yes: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(PRUNE_HELP);
    return 0;
  }
  if (!values["older-than"]) throw new UsageError("prune wants --older-than DURATION (e.g. 24h)");
  const olderThanHours = parseDuration(values["older-than"], "--older-than") / 3_600_000;
  const config = configOptions(values);
  let status = 0;
  const roots: PruneJson["roots"] = [];
  // With --json the lines are left out: stdout is the one document, printed at the end.
  const say = values.json ? () => {} : io.stdout;
  for (const workspaceRoot of workspaceRoots(values.store, values.config)) {
    const log = (line: object) => io.stderr(JSON.stringify(line));
    // The preview; with --dry-run it is the whole run, and its decisions are logged.
    const preview = await pruneSessions({
      olderThanHours,
      workspaceRoot,
      dryRun: true,
      config,
      log: values["dry-run"] ? log : () => {},
    });
    const bytes = preview.candidates.reduce((t, c) => t + c.bytes, 0);
    say(
      `${visible(workspaceRoot)}: ${preview.candidates.length} workspace${preview.candidates.length === 1 ? "" : "s"} idle for more than ${values["older-than"]}, ${formatBytes(bytes)}; ${preview.skipped.length} skipped`,
    );
    if (values["dry-run"] || preview.candidates.length === 0) {
      roots.push({ root: workspaceRoot, preview, result: null });
      continue;
    }
    const stop = await confirmMove(io, {
      yes: values.yes,
      question: `Type DELETE to move ${preview.candidates.length} workspaces (${formatBytes(bytes)}) to the trash: `,
      refusal: "prune",
    });
    if (stop !== undefined) return stop; // with --json, main prints the refusal as JSON
    const result = await pruneSessions({ olderThanHours, workspaceRoot, config, log, actor: "cli" });
    roots.push({ root: workspaceRoot, preview, result });
    say(
      `Pruned ${result.deleted.length} workspace${result.deleted.length === 1 ? "" : "s"}, ${formatBytes(result.bytesReclaimed)} reclaimed; ${result.skipped.length} skipped.`,
    );
    if (result.deleted.length < result.candidates.length) status = 1;
  }
  if (values.json) io.stdout(JSON.stringify({ dryRun: values["dry-run"], roots } satisfies PruneJson));
  return status;
}

export async function runTouch(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help || positionals.length !== 1) {
    io.stdout(TOUCH_HELP);
    return values.help ? 0 : 2;
  }
  const metadata = touchSession(positionals[0]!, new Date(), { config: configOptions(values) });
  if (values.json) {
    io.stdout(JSON.stringify({ dir: positionals[0], metadata }));
    return 0;
  }
  io.stdout(`${visible(positionals[0]!)}: updated_at ${metadata.updated_at}`);
  return 0;
}

export async function runRepair(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help || positionals.length !== 1) {
    io.stdout(REPAIR_HELP);
    return values.help ? 0 : 2;
  }
  const result = repairSessionMetadata(positionals[0]!, {
    dryRun: values["dry-run"],
    config: configOptions(values),
  });
  if (values.json) {
    io.stdout(JSON.stringify({ dir: positionals[0], ...result }));
    return 0;
  }
  const dir = visible(positionals[0]!);
  io.stdout(
    result.status === "ok"
      ? `${dir}: metadata is valid; left alone`
      : `${dir}: ${result.status === "repaired" ? "repaired" : "would repair"} (${result.problem}) → created_at ${result.metadata.created_at}, updated_at ${result.metadata.updated_at}`,
  );
  return 0;
}
