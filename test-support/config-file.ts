// Tests that delete write the config the way a user does: as the file the engine reads under its
// lock (the default `<agentDir>/session-retention.json`, inside the test's sandboxed home), so the
// engine's own fresh reading of it is what the tests exercise.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ConfigInput } from "../shared/config.js";
import { statePaths } from "../server/state/state-dir.js";

/** Writes `raw` as the config file (default: the default one) and returns its path. */
export function writeConfigFile(
  raw: ConfigInput | Record<string, unknown>,
  path = statePaths().configFile,
): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(raw, null, 2)}\n`);
  return path;
}

/**
 * The config of tests that delete chosen sessions: no count-based keeps, an emptied store allowed,
 * and the given target (and any other settings in `extra`).
 */
export const lenientConfig = (target: "quarantine" | "trash" = "quarantine", extra: ConfigInput = {}) =>
  writeConfigFile({
    ...extra,
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    deletion: { target },
  });
