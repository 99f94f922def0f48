// Loads the config file: defaults when there is none, every problem at once when it is invalid.
// An invalid config puts the program in read-only mode — it can scan and show, never delete — and
// it never guesses a broader root or a harsher policy in its place.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { type Config, type ConfigProblem, sessionDirProblem, validateConfig } from "../../shared/config.js";
import { UserError } from "../errors.js";
import { expandTilde } from "../stores/pi/locations.js";
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
      /**
       * The store root the file names, as far as it can be trusted without the rest of the file:
       * `undefined` = none set (pi's own locations); `"unknown"` = set but unusable, or unreadable.
       */
      sessionDir: string | undefined | "unknown";
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
  const fail = (message: string, sessionDir: string | undefined | "unknown" = "unknown"): ConfigStatus => ({
    ok: false,
    path,
    problems: [{ path: "(file)", message }],
    sessionDir,
  });

  let raw: unknown = {};
  let source: "file" | "defaults" = "file";
  try {
    const text = readFileSync(path, "utf8");
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return fail(`not valid JSON: ${describeJsonError(error as Error, text)}`);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.file === undefined) source = "defaults";
    else if (code === "ENOENT") return fail("does not exist");
    else return fail(`cannot be read: ${(error as Error).message}`);
  }

  for (const set of options.sets ?? []) raw = applyOverride(raw, set);

  const result = validateConfig(raw, home);
  if (!result.ok)
    return { ok: false, path, problems: result.problems, sessionDir: trustedSessionDir(raw, home) };
  const config = result.config;
  if (config.sessionDir !== undefined) config.sessionDir = expandTilde(config.sessionDir, home);
  return { ok: true, path, source, config };
}

/** The `sessionDir` of an invalid file, if that one field is usable on its own. */
function trustedSessionDir(raw: unknown, home: string): string | undefined | "unknown" {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "unknown";
  const value = (raw as { sessionDir?: unknown }).sessionDir;
  if (value === undefined) return undefined;
  if (typeof value !== "string" || sessionDirProblem(value, home)) return "unknown";
  return expandTilde(value, home);
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

/** "Unexpected token } in JSON at position 45" → "… (line 3, column 5)". */
function describeJsonError(error: Error, text: string): string {
  const position = /position (\d+)/.exec(error.message)?.[1];
  if (position === undefined) return error.message;
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = Number(position) - before.lastIndexOf("\n");
  return `${error.message.replace(/ in JSON at position \d+.*$/, "")} (line ${line}, column ${column})`;
}

/** The one clear message of an invalid config: every problem with its JSON path, and what happens now. */
export function describeInvalidConfig(status: Extract<ConfigStatus, { ok: false }>): string {
  return [
    `invalid config ${status.path}:`,
    ...status.problems.map((p) => `  ${p.path}: ${p.message}`),
    "Running read-only: sessions can be scanned and shown; nothing is deleted until the config is fixed.",
  ].join("\n");
}
