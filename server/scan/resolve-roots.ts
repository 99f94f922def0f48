// Which stores a command looks at: `--root DIR` / `--store KIND:DIR` (repeatable), else the
// config's `stores` or `sessionDir`, else where each agent keeps its stores by default (as its
// adapter says: `StoreAdapter.defaultStores`). Never a broader root than the one configured, and
// every root through the place gate, all together: none may be `/`, home or above it, a system
// folder, inside another root, or inside the trash.

import type { StoreKind, StoreRef } from "../../shared/session-record.js";
import { UserError } from "../errors.js";
import { checkPlaces, RefusedPlaceError, type StorePlace } from "../safety/place-gate.js";
import type { ConfiguredRoot } from "../config/configured-root.js";
import { defaultStoresOf } from "../stores/store-adapter.js";
import { checkRoot, UnusableRootError } from "./check-root.js";
import { SESSION_DIR_KIND } from "../../shared/store-kinds.js";

export interface ResolvedStores {
  /** Real, readable store roots, each with its kind. */
  stores: StoreRef[];
  /** Configured locations we skipped, said plainly. */
  notes: string[];
}

/**
 * A store named by kind and folder (`--root DIR` or `--store KIND:DIR` once the CLI has read it, or
 * a caller's own).
 */
export interface NamedStore extends StoreRef {
  /** The flag that named it, for a refusal's message. Default `--store`. */
  flag?: string;
}

/** The named stores, each usable (an existing, readable folder) and all of them through the gate together. */
function gated(stores: readonly StorePlace[], env: NodeJS.ProcessEnv, quarantine?: string): ResolvedStores {
  const usable = stores.map((store) => ({ ...store, root: checkRoot(store.root) }));
  const checked = checkPlaces(usable, { env, ...(quarantine !== undefined ? { quarantine } : {}) });
  return { stores: checked.stores.map((s) => ({ kind: s.kind, root: s.root })), notes: [] };
}

/**
 * Every store a command looks at. Flags (`--root`, `--store`) replace everything else; else the
 * config's `stores` list is exactly what is used; else its `sessionDir`; else every agent's default
 * stores where they are stores (`defaultStoresOf`: pi's agent dir and custom session dirs, Claude
 * Code's `~/.claude` once it has `projects/`, …).
 * A store the user named must be usable and pass the gate, or the command stops with the reason;
 * one we found on our own is skipped with a note.
 */
export function resolveStores(
  flags: {
    /** Stores named by kind (the CLI reads `--root DIR` and `--store KIND:DIR` into these: cli/store-flags.ts). */
    stores?: readonly NamedStore[];
    /** The kinds found on our own when nothing names the stores (default: every kind). */
    discover?: readonly StoreKind[];
  },
  env: NodeJS.ProcessEnv = process.env,
  configured?: ConfiguredRoot,
): ResolvedStores {
  const quarantine = configured?.quarantineDir;
  const named: StorePlace[] = (flags.stores ?? []).map(({ kind, root, flag }) => ({
    kind,
    root,
    label: flag ?? "--store",
  }));
  if (named.length > 0) return gated(named, env, quarantine);

  const untrusted = (what: string, flag: string) =>
    new UserError(
      `the ${what} named in ${configured!.configPath} cannot be trusted while the file is invalid; fix it or pass ${flag}`,
    );
  if (configured?.stores === "unknown") throw untrusted("stores", "--store KIND:DIR");
  if (configured?.stores !== undefined)
    return gated(
      configured.stores.map((s, i) => ({ ...s, label: `stores[${i}].root` })),
      env,
      quarantine,
    );
  if (configured?.sessionDir === "unknown") throw untrusted("store root", "--root DIR");
  if (configured?.sessionDir !== undefined)
    return gated(
      [{ kind: SESSION_DIR_KIND, root: configured.sessionDir, label: "sessionDir" }],
      env,
      quarantine,
    );

  // Nothing named: what the agents use, where it is a store and passes the gate.
  const defaults = defaultStoresOf(env);
  const notes = [...defaults.notes];
  const found: StorePlace[] = [];
  const wanted = defaults.stores.filter((store) => flags.discover?.includes(store.kind) ?? true);
  const candidates = wanted.filter((store) => store.isStore);
  for (const { kind, root, label, quiet } of candidates) {
    const candidate = { kind, root, label };
    try {
      // Judged without the quarantine: a store is skipped for its own sake only. A configured
      // quarantine that is refused (`/`, home, inside this store) stops the command below with its
      // reason; skipping every store for it ended in a wrong "does not exist".
      gated([...found, candidate], env);
      found.push(candidate);
    } catch (error) {
      if (!(error instanceof UnusableRootError || error instanceof RefusedPlaceError)) throw error;
      if (!quiet || error instanceof RefusedPlaceError)
        notes.push(`${candidate.label} skipped: ${error.message}`);
    }
  }
  // The first agent's first store (pi's default: the tool began as pi's) is the one named when
  // none is found, and noted as missing when others are.
  const main = wanted[0] ?? defaults.stores[0]!;
  if (found.length === 0)
    throw new UnusableRootError(
      main.root,
      `does not exist (${main.label}; no agent's store was found where it is kept by default: use --root DIR or --store KIND:DIR)`,
    );
  if (!found.some((s) => s.kind === main.kind))
    notes.push(
      `${main.label} ${main.root} is not there; looking at ${found.map((s) => s.label).join(", ")} only`,
    );
  return { ...gated(found, env, quarantine), notes };
}

/**
 * The stores to scan, through the place gate: whoever calls — the CLI and the server have resolved
 * them already, a library user may not have — no root is `/`, home, a system folder, inside
 * another or inside the trash, and each is its real path.
 */
export function gatedStores(stores: readonly StoreRef[]): StoreRef[] {
  return checkPlaces(
    stores.map((s) => ({ kind: s.kind, root: s.root, label: `${s.kind} store` })),
  ).stores.map((s) => ({ kind: s.kind, root: s.root }));
}
