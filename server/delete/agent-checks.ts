// After a delete or a restore changed an agent's store, the agent's own check of it (an adapter's
// `checkAfterChange`: Codex's `codex doctor`), once per store: its verdict goes into the result, its
// notes and the audit log's detail. A verdict that is not "ok" is said loudly; it never undoes a move.
import type { StoreKind } from "../../shared/session-record.js";
import type { AgentCheck } from "../../shared/trash.js";
import { storeAdapter } from "../stores/store-adapter.js";

/**
 * The checks of every store among `changed` whose agent has one, each store once; `restored`: the
 * paths a restore put back into it (the check may expect its agent not to know them yet).
 */
export async function agentChecks(
  changed: ReadonlyArray<{ kind: StoreKind; root: string; restored?: readonly string[] }>,
  env: NodeJS.ProcessEnv,
): Promise<AgentCheck[]> {
  const stores = new Map<string, { kind: StoreKind; root: string; restored: string[] }>();
  for (const { kind, root, restored = [] } of changed) {
    const store = stores.get(`${kind}\0${root}`) ?? { kind, root, restored: [] };
    store.restored.push(...restored);
    stores.set(`${kind}\0${root}`, store);
  }
  const checks: AgentCheck[] = [];
  for (const { kind, root, restored } of stores.values()) {
    const check = (await storeAdapter(kind)).checkAfterChange;
    if (check) checks.push({ agent: kind, storeRoot: root, ...check(root, env, restored) });
  }
  return checks;
}

/** A check as a note: plain when all is well, loud when it is not. */
export function checkNote(check: AgentCheck): string {
  const where = `(${check.storeRoot})`;
  if (check.status === "ok" || check.status === "unavailable") return `${check.message} ${where}`;
  return `${check.status === "fail" ? "FAILED" : "WARNING"}: ${check.message} ${where} — the change itself stands; look at the store with the agent's own tools`;
}

/** The checks for an audit entry's detail. */
export const checksDetail = (checks: readonly AgentCheck[] | undefined) =>
  checks?.length ? `; ${checks.map(checkNote).join("; ")}` : "";
