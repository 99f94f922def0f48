// Reading the config file's text, and the one key every command needs — the store root — without
// validating the rest and without zod, so `scan` stays fast. config-file.ts does the full validation.
import { homedir } from "node:os";
import { controlCharacterProblem, sessionDirProblem } from "../../shared/places.js";
import { STORE_KINDS, type StoreKind } from "../../shared/store-kinds.js";
import { expandTilde } from "../stores/pi/locations.js";
import { CONFIG_MAX_BYTES, readSmallTextFile, UnreadableFileError } from "../fs/read-small-file.js";
import { statePaths } from "../state/state-dir.js";

export type RawConfig =
  /** No file at the default path: the defaults apply. */
  { kind: "absent" } | { kind: "parsed"; raw: unknown } | { kind: "unusable"; message: string };

/**
 * Reads and parses the file; an explicit `--config` that does not exist is unusable, not absent.
 * A FIFO, a device, a file over 1 MB or one that is not UTF-8 is unusable too: never a hang, never
 * a guess at what was meant.
 */
export function readRawConfig(path: string, explicit: boolean): RawConfig {
  let text: string;
  try {
    text = readSmallTextFile(path, { maxBytes: CONFIG_MAX_BYTES, what: "config file" });
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    if (error.code === "ENOENT" && !explicit) return { kind: "absent" };
    return { kind: "unusable", message: error.problem };
  }
  try {
    return { kind: "parsed", raw: JSON.parse(text) };
  } catch (error) {
    return { kind: "unusable", message: `not valid JSON: ${describeJsonError(error as Error, text)}` };
  }
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

/**
 * The store root a config names, as far as it can be trusted without the rest of the file:
 * `undefined` = none set (pi's own locations); `"unknown"` = set but unusable, or the file unreadable.
 */
export type ConfiguredSessionDir = string | undefined | "unknown";

export function trustedSessionDir(raw: unknown, home: string): ConfiguredSessionDir {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "unknown";
  const value = (raw as { sessionDir?: unknown }).sessionDir;
  if (value === undefined) return undefined;
  if (typeof value !== "string" || sessionDirProblem(value, home)) return "unknown";
  return expandTilde(value, home);
}

/** Stores named by the config's `stores` (trusted each on its own), or "unknown" when unusable. */
export type ConfiguredStores = Array<{ kind: StoreKind; root: string }> | undefined | "unknown";

export function trustedStores(raw: unknown, home: string): ConfiguredStores {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "unknown";
  const value = (raw as { stores?: unknown }).stores;
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return "unknown";
  const stores: Array<{ kind: StoreKind; root: string }> = [];
  for (const store of value) {
    const { kind, root } = (store ?? {}) as { kind?: unknown; root?: unknown };
    if (!(STORE_KINDS as readonly unknown[]).includes(kind)) return "unknown";
    if (typeof root !== "string" || sessionDirProblem(root, home)) return "unknown";
    stores.push({ kind: kind as StoreKind, root: expandTilde(root, home) });
  }
  return stores;
}

/**
 * The quarantine a config names (expanded), as far as it can be read without the rest of the file:
 * a store root must not lie inside it. Unset or unusable: the default quarantine.
 */
export function trustedQuarantineDir(raw: unknown, home: string): string | undefined {
  const value = (raw as { deletion?: { quarantineDir?: unknown } } | null)?.deletion?.quarantineDir;
  return typeof value === "string" &&
    (value === "~" || value.startsWith("/") || value.startsWith("~/")) &&
    !controlCharacterProblem(value, "")
    ? expandTilde(value, home)
    : undefined;
}

export interface ConfiguredRoot {
  configPath: string;
  sessionDir: ConfiguredSessionDir;
  stores?: ConfiguredStores;
  /** `deletion.quarantineDir`, expanded; undefined = the default quarantine. */
  quarantineDir?: string;
}

/** The store root of the config file (default or `--config FILE`), for commands that only show. */
export function configuredRoot(options: { file?: string; env?: NodeJS.ProcessEnv } = {}): ConfiguredRoot {
  const env = options.env ?? process.env;
  const configPath = options.file ?? statePaths(env).configFile;
  const read = readRawConfig(configPath, options.file !== undefined);
  const home = env.HOME || homedir();
  if (read.kind === "absent") return { configPath, sessionDir: undefined };
  if (read.kind === "unusable") return { configPath, sessionDir: "unknown", stores: "unknown" };
  const quarantineDir = trustedQuarantineDir(read.raw, home);
  return {
    configPath,
    sessionDir: trustedSessionDir(read.raw, home),
    stores: trustedStores(read.raw, home),
    ...(quarantineDir !== undefined ? { quarantineDir } : {}),
  };
}
