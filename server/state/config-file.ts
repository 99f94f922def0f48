// Loads the config file: defaults when there is none, every problem at once when it is invalid.
// An invalid config puts the program in read-only mode — it can scan and show, never delete — and
// it never guesses a broader root or a harsher policy in its place.
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import type { AuditEntry } from "../../shared/audit.js";
import { type Config, type ConfigProblem, validateConfig } from "../../shared/config.js";
import { UserError } from "../errors.js";
import { expandTilde } from "../stores/pi/locations.js";
import {
  type ConfiguredRoot,
  type ConfiguredSessionDir,
  type ConfiguredStores,
  readRawConfig,
  trustedSessionDir,
  trustedStores,
} from "./configured-root.js";
import { writeFileAtomic } from "./atomic-write.js";
import { appendAudit } from "./audit-log.js";
import { statePaths } from "./state-dir.js";

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
      problems: ConfigProblem[];
      /** The store root the file names, as far as it can be trusted without the rest of it. */
      sessionDir: ConfiguredSessionDir;
      stores: ConfiguredStores;
    };

export interface LoadConfigOptions {
  /** `--config FILE`; it must exist. Default `<agentDir>/session-retention.json`, which may be absent. */
  file?: string;
  /** `--set key=value` overrides, applied before validation (`quota.maxSessionCount=500`). */
  sets?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** A `--set` that cannot be applied. */
export class ConfigOverrideError extends UserError {
  override name = "ConfigOverrideError";
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
  const result = validateConfig(raw, home);
  if (!result.ok)
    return {
      ok: false,
      path,
      problems: result.problems,
      sessionDir: trustedSessionDir(raw, home),
      stores: trustedStores(raw, home),
    };
  const config = result.config;
  if (config.sessionDir !== undefined) config.sessionDir = expandTilde(config.sessionDir, home);
  if (config.stores) config.stores = config.stores.map((s) => ({ ...s, root: expandTilde(s.root, home) }));
  return { ok: true, path, source: read.kind === "parsed" ? "file" : "defaults", config };
}

/** The store root a loaded config names (for `resolveRoots`). */
export function rootOf(status: ConfigStatus): ConfiguredRoot {
  return status.ok
    ? { configPath: status.path, sessionDir: status.config.sessionDir, stores: status.config.stores }
    : { configPath: status.path, sessionDir: status.sessionDir, stores: status.stores };
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

/** The one clear message of an invalid config: every problem with its JSON path, and what happens now. */
export function describeInvalidConfig(status: Extract<ConfigStatus, { ok: false }>): string {
  return [
    `invalid config ${status.path}:`,
    ...status.problems.map((p) => `  ${p.path}: ${p.message}`),
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
    throw new UserError(`${describeInvalidConfig(status)}\n${error.message}`);
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
  const checked = validateConfig(raw, env.HOME || homedir());
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
