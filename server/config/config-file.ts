// Loads the config file: defaults when there is none, every problem at once when it is invalid.
// An invalid config puts the program in read-only mode — it can scan and show, never delete — and
// it never guesses a broader root or a harsher policy in its place.
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import type { AuditEntry } from "../../shared/audit.js";
import {
  type Config,
  type ConfigProblem,
  type ConfigValidation,
  validateConfig,
} from "../../shared/config.js";
import { ConflictError, UserError } from "../errors.js";
import { configPlaceEnvironment } from "../safety/place-gate.js";
import { expandTilde } from "../stores/pi/locations.js";
import {
  type ConfiguredRoot,
  type ConfiguredSessionDir,
  type ConfiguredStores,
  readRawConfig,
  trustedQuarantineDir,
  trustedSessionDir,
  trustedStores,
} from "./configured-root.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { appendAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";

export type ConfigStatus =
  | {
      ok: true;
      path: string;
      /** "defaults": there is no file at the default path. */
      source: "file" | "defaults";
      /** Valid, with defaults filled in and `sessionDir` expanded. */
      config: Config;
    }
  | {
      ok: false;
      path: string;
      /** Each with where its value came from: the file, or the `--set` that gave it. */
      problems: SourcedProblem[];
      /** The store root the file names, as far as it can be trusted without the rest of it. */
      sessionDir: ConfiguredSessionDir;
      stores: ConfiguredStores;
      quarantineDir?: string;
    };

/** A config problem and, when it was not the file, where the bad value came from. */
export interface SourcedProblem extends ConfigProblem {
  /** `--set quota.maxSessionCount=abc`; absent when the value is the file's (or a default). */
  from?: string;
}

export interface LoadConfigOptions {
  /** `--config FILE`; it must exist. Default `<agentDir>/session-retention.json`, which may be absent. */
  file?: string;
  /** `--set key=value` overrides, applied before validation (`quota.maxSessionCount=500`). */
  sets?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * The config is invalid, so the program is read-only: nothing of an agent's is changed — deleted,
 * purged, its time refreshed, a workspace's metadata written — until it is fixed (the CLI exits 2,
 * the API answers 409). Restoring stays allowed: it only undoes a move of ours.
 */
export class ReadOnlyError extends ConflictError {
  constructor(readonly invalid: Extract<ConfigStatus, { ok: false }>) {
    const problems = invalid.problems
      .map((p) => `${p.path}: ${p.message}${p.from !== undefined ? ` (from ${p.from})` : ""}`)
      .join("; ");
    super(
      `read-only: ${invalid.path} is invalid (${problems}), so nothing can be deleted or changed until it is fixed`,
      "read_only",
    );
  }
  override name = "ReadOnlyError";
}

/**
 * The config as the file says now, for a change to an agent's files: an invalid one makes the
 * program read-only, and the change is refused (ReadOnlyError) — whatever asks for it: the CLI, the
 * dashboard, the pi extension or the library. The one check every such change goes through (the
 * deletion engine's under its lock, the write gate's for every other write into a store).
 */
export function writableConfig(options: LoadConfigOptions = {}): Config {
  const status = loadConfig(options);
  if (!status.ok) throw new ReadOnlyError(status);
  return status.config;
}

/** A `--set` that cannot be applied. */
export class ConfigOverrideError extends UserError {
  override name = "ConfigOverrideError";
}

/**
 * Validates a config's own JSON on this machine: the schema, and every folder it names judged by
 * its real path against the home folder, the system folders, the other stores and the trash.
 */
export function checkConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): ConfigValidation {
  return validateConfig(raw, configPlaceEnvironment(env));
}

export function loadConfig(options: LoadConfigOptions = {}): ConfigStatus {
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  const path = options.file ?? statePaths(env).configFile;
  const read = readRawConfig(path, options.file !== undefined);
  if (read.kind === "unusable")
    return {
      ok: false,
      path,
      problems: [{ path: "(file)", message: read.message }],
      sessionDir: "unknown",
      stores: "unknown",
    };
  let raw = read.kind === "parsed" ? read.raw : {};
  for (const set of options.sets ?? []) raw = applyOverride(raw, set);
  const result = checkConfig(raw, env);
  if (!result.ok) {
    const quarantineDir = trustedQuarantineDir(raw, home);
    return {
      ok: false,
      path,
      problems: result.problems.map((p) => blame(p, options.sets ?? [])),
      sessionDir: trustedSessionDir(raw, home),
      stores: trustedStores(raw, home),
      ...(quarantineDir !== undefined ? { quarantineDir } : {}),
    };
  }
  const config = result.config;
  if (config.sessionDir !== undefined) config.sessionDir = expandTilde(config.sessionDir, home);
  if (config.stores) config.stores = config.stores.map((s) => ({ ...s, root: expandTilde(s.root, home) }));
  if (config.deletion.quarantineDir !== null)
    config.deletion.quarantineDir = expandTilde(config.deletion.quarantineDir, home);
  return { ok: true, path, source: read.kind === "parsed" ? "file" : "defaults", config };
}

/** The store roots and quarantine a loaded config names (for `resolveStores`). */
export function rootOf(status: ConfigStatus): ConfiguredRoot {
  if (!status.ok)
    return {
      configPath: status.path,
      sessionDir: status.sessionDir,
      stores: status.stores,
      ...(status.quarantineDir !== undefined ? { quarantineDir: status.quarantineDir } : {}),
    };
  const { sessionDir, stores, deletion } = status.config;
  return {
    configPath: status.path,
    sessionDir,
    stores,
    ...(deletion.quarantineDir !== null ? { quarantineDir: deletion.quarantineDir } : {}),
  };
}

/**
 * `key.path=value`: the value is read as JSON when it is JSON (numbers, true, null, arrays…),
 * else taken as a string, so `mode=hard-block` needs no quotes.
 */
export function applyOverride(raw: unknown, set: string): unknown {
  const eq = set.indexOf("=");
  if (eq <= 0) throw new ConfigOverrideError(`--set wants key=value, got "${set}"`);
  const keys = set.slice(0, eq).split(".");
  if (keys.some((key) => key === "" || key === "__proto__" || key === "constructor" || key === "prototype"))
    throw new ConfigOverrideError(`--set: "${set.slice(0, eq)}" is not a key path`);
  const text = set.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  const root: Record<string, unknown> = isObject(raw) ? structuredClone(raw) : {};
  let node = root;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  return root;
}

/**
 * The `--set` a problem comes from: the last one whose key is the problem's path, inside it, or
 * above it (`--set quota={"warnRatio":2}` is blamed for `quota.warnRatio`). The last, since a later
 * `--set` of the same key wins.
 */
function blame(problem: ConfigProblem, sets: readonly string[]): SourcedProblem {
  const key = (set: string) => set.slice(0, Math.max(set.indexOf("="), 0));
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`);
  const set = sets.findLast((s) => within(problem.path, key(s)) || within(key(s), problem.path));
  return set === undefined ? problem : { ...problem, from: `--set ${set}` };
}

/**
 * The one clear message of an invalid config: every problem with its JSON path and where the bad
 * value came from — a `--set` is named as such, never blamed on a file that may not even exist.
 */
export function describeInvalidConfig(status: Extract<ConfigStatus, { ok: false }>): string {
  const fromFlags = status.problems.every((p) => p.from !== undefined);
  return [
    fromFlags
      ? `invalid ${status.problems.length === 1 ? "value" : "values"} on the command line:`
      : `invalid config ${status.path}:`,
    ...status.problems.map((p) =>
      p.from === undefined ? `  ${p.path}: ${p.message}` : `  ${p.path}: ${p.message} (from ${p.from})`,
    ),
    "Running read-only: sessions can be scanned and shown; nothing is deleted until the config is fixed.",
  ].join("\n");
}

/**
 * Runs `work` (finding the stores to look at) and, when it fails while the config is invalid, puts
 * the config's problems first: they are usually the cause ("the stores named in it cannot be
 * trusted"), and without them the user would not learn that the file is a FIFO or not UTF-8.
 */
export function withConfigProblems<T>(status: ConfigStatus, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (status.ok || !(error instanceof UserError)) throw error;
    // The same refusal, said after the config's problems: its status and code stay its own.
    throw new UserError(`${describeInvalidConfig(status)}\n${error.message}`, {
      status: error.status,
      apiCode: error.apiCode,
      cause: error,
    });
  }
}

/**
 * What a save replaces: through a symlink, its target (dotfile managers link configs, and the link
 * must stay one), keeping the mode the file has — the user may share it on purpose. A new file is
 * private (0600), like everything else of ours.
 */
function rewriteTarget(path: string): { file: string; mode?: number } {
  let file: string;
  try {
    file = realpathSync(path);
  } catch {
    return { file: path }; // none yet (or a dangling link, replaced by the file)
  }
  return { file, mode: statSync(file).mode & 0o777 };
}

/**
 * Saves the config file's own JSON (`raw`, not the defaults-filled config: the file keeps only what
 * the user set) after validating it, atomically, and audits the change. An invalid config is
 * refused with every problem and nothing is written.
 */
export function saveConfig(
  path: string,
  raw: unknown,
  actor: AuditEntry["actor"],
  env: NodeJS.ProcessEnv = process.env,
): { ok: true } | { ok: false; problems: ConfigProblem[] } {
  const checked = checkConfig(raw, env);
  if (!checked.ok) return { ok: false, problems: checked.problems };
  const { file, mode } = rewriteTarget(path);
  writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`, mode ?? 0o600, {
    exactMode: mode !== undefined,
  });
  appendAudit(statePaths(env).auditLog, {
    time: new Date().toISOString(),
    actor,
    action: "config",
    items: [],
    result: "ok",
    detail: `saved ${path}`,
  });
  return { ok: true };
}
