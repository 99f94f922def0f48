// The one gate for every write we make into an agent's store outside the deletion engine (which
// has its own, under its lock): the config must be valid — an invalid one makes the program
// read-only — and each session written into must pass the place gate (safety/place-gate.ts),
// judged beside every other store in use. Nothing is written unless every target passes.
import type { Config } from "../../shared/config.js";
import { SESSION_DIR_KIND } from "../../shared/store-kinds.js";
import { checkSessionWrite, defaultStorePlaces, type SessionWrite } from "../safety/place-gate.js";
import { type LoadConfigOptions, writableConfig } from "./config-file.js";

/** The stores a config uses (its `stores`, else its `sessionDir`), else the ones found on our own. */
function storesInUse(config: Config, env: NodeJS.ProcessEnv) {
  if (config.stores)
    return config.stores.map((s, i) => ({ kind: s.kind, path: s.root, label: `stores[${i}].root` }));
  if (config.sessionDir !== undefined)
    return [{ kind: SESSION_DIR_KIND, path: config.sessionDir, label: "sessionDir" }];
  return defaultStorePlaces(env);
}

/**
 * Judges a write into each of `targets`: throws ReadOnlyError while the config is invalid, and the
 * place gate's RefusedPlaceError for the first target refused. Returns the config and each target's
 * real root and path, in order, to write to.
 */
export function gateStoreWrites(
  targets: readonly SessionWrite[],
  options: { config?: LoadConfigOptions; env?: NodeJS.ProcessEnv } = {},
): { config: Config; targets: Array<{ root: string; path: string }> } {
  const env = options.env ?? process.env;
  const config = writableConfig({ ...options.config, env });
  const others = storesInUse(config, env);
  const quarantine = config.deletion.quarantineDir ?? undefined;
  return {
    config,
    targets: targets.map((target) =>
      checkSessionWrite(target, { others, env, ...(quarantine !== undefined ? { quarantine } : {}) }),
    ),
  };
}
