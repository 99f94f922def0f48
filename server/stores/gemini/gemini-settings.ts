// Gemini CLI's own retention, `general.sessionRetention`, as a Gemini started in a project would
// use it. Gemini merges its settings files key by key, later over earlier: the schema's defaults
// (on, maxAge "30d", minRetention "1d", no maxCount), the system defaults, the user's
// `settings.json`, the project's `.gemini/settings.json` — only when Gemini trusts the folder, and
// never the home folder's — and last the system settings, which override everything. Files may
// hold comments; a file that is not a JSON object counts as empty, as it does for Gemini. Then
// Gemini checks the result and runs no cleanup at all when it is off or invalid.
// (google-gemini/gemini-cli packages/cli/src/config/settings.ts `loadSettings`, `mergeSettings`;
// settingsSchema.ts; utils/deepMerge.ts; utils/sessionCleanup.ts `validateRetentionConfig`;
// config/trustedFolders.ts and core/src/utils/trust.ts for the trust of a folder.)
import { realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readSmallTextFile } from "../../fs/read-small-file.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNITS: Record<string, number> = { h: HOUR, d: DAY, w: 7 * DAY, m: 30 * DAY };
const DEFAULT_MIN_RETENTION = "1d";
const DEFAULTS = "Gemini CLI's default";
type Field = "enabled" | "maxAge" | "maxCount" | "minRetention";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What Gemini's cleanup deletes by, once the settings are merged and checked. */
export interface GeminiRetention {
  /** Older than this by a chat's `lastUpdated`, when set. */
  maxAgeMs?: number;
  /** Beyond this many of the most recent, when set. */
  maxCount?: number;
  /** The values in effect and where each comes from: "maxAge 30d (Gemini CLI's default)". */
  setting: string;
}

/** Where an administrator puts Gemini CLI's settings (or `$GEMINI_CLI_SYSTEM_SETTINGS_PATH`). */
function systemSettingsPath(env: NodeJS.ProcessEnv) {
  if (env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (process.platform === "darwin") return "/Library/Application Support/GeminiCli/settings.json";
  if (process.platform === "win32") return "C:\\ProgramData\\gemini-cli\\settings.json";
  return "/etc/gemini-cli/settings.json";
}

/** Removes `//` and `/* … *\/` comments outside strings, as Gemini does before parsing. */
export function stripJsonComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  return out;
}

/** A settings file as an object; `{}` when it is missing, unreadable or not a JSON object. */
function readSettings(file: string): Json {
  try {
    const parsed: unknown = JSON.parse(
      stripJsonComments(readSmallTextFile(file, { maxBytes: 1024 * 1024, what: "Gemini CLI settings" })),
    );
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Gemini's deep merge: objects key by key, anything else replaced (an undefined value never). */
function merge(target: Json, source: Json): Json {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || key === "__proto__" || key === "constructor" || key === "prototype") continue;
    target[key] = isObject(value) ? merge(isObject(target[key]) ? (target[key] as Json) : {}, value) : value;
  }
  return target;
}

const at = (settings: Json, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), settings);

const isSubpath = (parent: string, path: string) => path === parent || path.startsWith(`${parent}/`);
const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/**
 * Whether Gemini trusts `project`, so that its settings apply: folder trust turned off, the
 * environment's say, or the longest rule of `trustedFolders.json` that covers it. A folder no rule
 * covers is not trusted (Gemini asks, and loads without its settings meanwhile); a folder trusted
 * through an IDE alone we cannot see.
 */
function trusted(root: string, project: string, machine: Json, env: NodeJS.ProcessEnv): boolean {
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "true") return true;
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "false") return false;
  if (at(machine, "security", "folderTrust", "enabled") === false) return true;
  const rules = readSettings(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(root, "trustedFolders.json"));
  const location = realOr(project);
  let best: { length: number; trusted: boolean } | undefined;
  for (const [rule, level] of Object.entries(rules)) {
    if (level !== "TRUST_FOLDER" && level !== "TRUST_PARENT" && level !== "DO_NOT_TRUST") continue;
    const covers = realOr(level === "TRUST_PARENT" ? dirname(rule) : rule);
    if (isSubpath(covers, location) && rule.length > (best?.length ?? -1))
      best = { length: rule.length, trusted: level !== "DO_NOT_TRUST" };
  }
  return best?.trusted ?? false;
}

/** A retention period ("30d", "24h", "2w", "1m") in ms; undefined when Gemini would reject it. */
function period(value: unknown): number | undefined {
  const match = typeof value === "string" ? /^(\d+)([dhwm])$/.exec(value) : null;
  if (!match || Number(match[1]) === 0) return undefined;
  return Number(match[1]) * UNITS[match[2]!]!;
}

/**
 * Gemini CLI's retention for sessions of `project` (its absolute path; undefined when unknown, so
 * only settings that apply everywhere count), or why it runs none.
 */
export function geminiRetention(
  root: string,
  project: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): GeminiRetention | { off: string } {
  const system = systemSettingsPath(env);
  const systemDefaults = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(dirname(system), "system-defaults.json");
  const user = join(root, "settings.json");
  const layers: Array<[source: string, settings: Json]> = [
    [DEFAULTS, { general: { sessionRetention: { enabled: true, maxAge: "30d", minRetention: "1d" } } }],
    [systemDefaults, readSettings(systemDefaults)],
    [user, readSettings(user)],
    [system, readSettings(system)],
  ];
  // The project's own settings, between the user's and the system's: if Gemini would read them.
  const machine = layers.reduce<Json>((merged, [, settings]) => merge(merged, settings), {});
  const home = realOr(dirname(root));
  if (project !== undefined && realOr(project) !== home && trusted(root, project, machine, env)) {
    const file = join(project, ".gemini", "settings.json");
    layers.splice(3, 0, [file, readSettings(file)]);
  }
  const merged = layers.reduce<Json>((all, [, settings]) => merge(all, settings), {});
  const retention = at(merged, "general", "sessionRetention");
  const value = (field: Field) => at(retention as Json, field);
  /** The last file that set a field. */
  const from = (field: Field) =>
    layers.findLast(
      ([, settings]) => at(settings, "general", "sessionRetention", field) !== undefined,
    )?.[0] ?? DEFAULTS;
  const said = (field: Field) => `${field} = ${JSON.stringify(value(field))} (${from(field)})`;

  if (!value("enabled")) return { off: `general.sessionRetention is off: ${said("enabled")}` };
  const maxAge = value("maxAge");
  const maxAgeMs = maxAge ? period(maxAge) : undefined;
  if (maxAge && maxAgeMs === undefined)
    return { off: `Gemini CLI rejects ${said("maxAge")} and cleans nothing` };
  const minMs = period(value("minRetention") || DEFAULT_MIN_RETENTION) ?? period(DEFAULT_MIN_RETENTION)!;
  if (maxAgeMs !== undefined && maxAgeMs < minMs)
    return { off: `Gemini CLI rejects ${said("maxAge")}, below minRetention, and cleans nothing` };
  const maxCount = value("maxCount");
  if (maxCount !== undefined && (maxCount as number) < 1)
    return { off: `Gemini CLI rejects ${said("maxCount")} and cleans nothing` };
  if (!maxAge && maxCount === undefined)
    return { off: "general.sessionRetention sets neither maxAge nor maxCount" };

  // The values in effect, grouped by where they come from.
  const bySource = new Map<string, string[]>();
  for (const field of ["maxAge", "maxCount"] as const)
    if (value(field) !== undefined && value(field) !== "")
      bySource.set(from(field), [...(bySource.get(from(field)) ?? []), `${field} = ${String(value(field))}`]);
  const setting = `general.sessionRetention ${[...bySource].map(([source, values]) => `${values.join(", ")} (${source})`).join(", ")}`;
  return {
    ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
    ...(maxCount !== undefined ? { maxCount: Number(maxCount) } : {}),
    setting,
  };
}
