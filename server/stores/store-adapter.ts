// The registry of store adapters (the list is adapters.ts; the interface adapter-types.ts): the adapter
// of a kind, its reader (loaded once, on demand), and what the stores' agents say about live
// sessions, their own retention and how their sessions move.
import type { ExternalSweep } from "../../shared/plan.js";
import type { SessionRecord, StoreKind, StoreRef } from "../../shared/session-record.js";
import type {
  AgentProcess,
  AgentProcesses,
  DefaultStore,
  StoreAdapter,
  StoreMoveRule,
  StoreReader,
} from "./adapter-types.js";
import { STORE_ADAPTERS } from "./adapters.js";

/** The adapter of a kind of store. */
export const adapterOf = (kind: StoreKind): StoreAdapter => STORE_ADAPTERS[kind];

/**
 * Where every agent keeps its stores when nothing names them (`StoreAdapter.defaultStores`), in the
 * registry's order, each with its kind and whether a folder is there that holds sessions
 * (`StoreAdapter.isStore`); and the notes of settings that could not be used.
 */
export function defaultStoresOf(env: NodeJS.ProcessEnv): {
  stores: Array<DefaultStore & { kind: StoreKind; isStore: boolean }>;
  notes: string[];
} {
  const stores: Array<DefaultStore & { kind: StoreKind; isStore: boolean }> = [];
  const notes: string[] = [];
  for (const adapter of Object.values(STORE_ADAPTERS)) {
    const found = adapter.defaultStores?.(env);
    for (const store of found?.stores ?? [])
      stores.push({ kind: adapter.kind, ...store, isStore: adapter.isStore?.(store.root) ?? true });
    notes.push(...(found?.notes ?? []));
  }
  return { stores, notes };
}

/** The agents whose running processes show their live sessions (`StoreAdapter.processes`), with what is running of each now. */
export function runningAgents(): Array<{ processes: AgentProcesses; running: AgentProcess[] }> {
  return Object.values(STORE_ADAPTERS).flatMap(({ processes }) =>
    processes ? [{ processes, running: processes.running() }] : [],
  );
}

const readers = new Map<StoreKind, Promise<StoreReader>>();

/** The reader of a kind's adapter, with its kind: loaded the first time it is asked for. */
export async function storeAdapter(kind: StoreKind): Promise<StoreReader & { kind: StoreKind }> {
  let reader = readers.get(kind);
  if (!reader) {
    reader = adapterOf(kind).load();
    readers.set(kind, reader);
    // A failed load (a missing file) is tried again next time, not remembered.
    reader.catch(() => readers.delete(kind));
  }
  return { kind, ...(await reader) };
}

/** What each store's agent will delete on its own next (agents without a retention of their own have none). */
export async function externalSweepsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
  now = new Date(),
): Promise<ExternalSweep[]> {
  const sweeps: ExternalSweep[] = [];
  for (const store of stores) {
    const sweep = (await storeAdapter(store.kind)).externalSweep?.(store.root, sessions, now);
    if (sweep) sweeps.push(sweep);
  }
  return sweeps;
}

/** Sessions the stores' agents say are live, beyond open files: id → how we know. */
export async function liveSessionsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
): Promise<Map<string, string>> {
  const live = new Map<string, string>();
  for (const store of stores) {
    for (const [id, how] of (await storeAdapter(store.kind)).liveSessions?.(store.root, sessions) ?? [])
      live.set(id, how);
  }
  return live;
}

/** How each store's sessions are moved (by root), and why they cannot be now, if so. */
export async function moveRulesOf(
  stores: readonly StoreRef[],
  env: NodeJS.ProcessEnv,
): Promise<Map<string, StoreMoveRule>> {
  const rules = new Map<string, StoreMoveRule>();
  for (const store of stores) {
    const custody = adapterOf(store.kind).custody;
    const blocked = custody?.blocked(env);
    rules.set(store.root, {
      way: custody ? "link" : "rename",
      ...(blocked ? { blocked } : {}),
      ...(custody ? { applies: custody.takes } : {}),
    });
  }
  return rules;
}
