// The registry of store adapters (the interface is in adapter-types.ts, apart, because each adapter
// needs its types and this file loads each adapter): the adapter for a kind, loaded on demand, and
// what the stores' agents say about live sessions and their own retention.
// pi's adapter is the incremental file scanner (server/scan/scanner.ts), built for stores of
// 100,000 files; every other kind plugs in here.
import type { ExternalSweep } from "../../shared/plan.js";
import type { SessionRecord, StoreKind, StoreRef } from "../../shared/session-record.js";
import type { StoreAdapter, StoreMoveRule } from "./adapter-types.js";

/** Loaded on demand, so a scan of pi stores alone never pays for the others (nor for zod). */
export async function storeAdapter(kind: StoreAdapter["kind"]): Promise<StoreAdapter> {
  if (kind === "agentsh") {
    const { scanAgentshRoot } = await import("./agentsh/agentsh-store.js");
    return { kind, scan: scanAgentshRoot };
  }
  if (kind === "claude") {
    const [
      { scanClaudeRoot, rescanClaudeChanged },
      { claudeLiveSessions },
      { claudeSweep, claudeSweptAgain },
    ] = await Promise.all([
      import("./claude/claude-store.js"),
      import("./claude/claude-live.js"),
      import("./claude/claude-sweep.js"),
    ]);
    return {
      kind,
      scan: scanClaudeRoot,
      rescanChanged: rescanClaudeChanged,
      liveSessions: (root, sessions) => claudeLiveSessions(root, sessions),
      externalSweep: claudeSweep,
      sweptAgain: claudeSweptAgain,
    };
  }
  if (kind === "codex") {
    const [
      { scanCodexRoot, rescanCodexChanged },
      { codexAlsoDeletes },
      { codexDoctor },
      { codexBinary },
      { codexCustody },
    ] = await Promise.all([
      import("./codex/codex-store.js"),
      import("./codex/codex-spawned.js"),
      import("./codex/codex-doctor.js"),
      import("./codex/codex-delete.js"),
      import("./codex/codex-custody.js"),
    ]);
    return {
      kind,
      scan: scanCodexRoot,
      rescanChanged: rescanCodexChanged,
      alsoDeletes: (root, scan, ids, env) => codexAlsoDeletes(root, scan, ids, env),
      checkAfterChange: (root, env) => {
        const codex = codexBinary(env);
        return codex === undefined
          ? { status: "unavailable", message: "codex doctor was not run: no `codex` binary was found" }
          : codexDoctor(codex, root, env);
      },
      // Our copy is a hard link; Codex's own `codex delete` removes the original (codex-delete.ts).
      custody: codexCustody,
    };
  }
  if (kind === "gemini") {
    const [
      { scanGeminiRoot, rescanGeminiChanged },
      { geminiLiveSessions },
      { geminiSweep, geminiSweptAgain },
    ] = await Promise.all([
      import("./gemini/gemini-store.js"),
      import("./gemini/gemini-live.js"),
      import("./gemini/gemini-sweep.js"),
    ]);
    return {
      kind,
      scan: scanGeminiRoot,
      rescanChanged: rescanGeminiChanged,
      liveSessions: geminiLiveSessions,
      externalSweep: geminiSweep,
      sweptAgain: geminiSweptAgain,
    };
  }
  const { scanWorkspaceRoot } = await import("./workspace/workspace-store.js");
  return { kind, scan: scanWorkspaceRoot };
}

/** What each store's agent will delete on its own next (agents without a retention of their own have none). */
export async function externalSweepsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
  now = new Date(),
): Promise<ExternalSweep[]> {
  const sweeps: ExternalSweep[] = [];
  for (const store of stores) {
    if (store.kind === "pi") continue;
    const sweep = (await storeAdapter(store.kind)).externalSweep?.(store.root, sessions, now);
    if (sweep) sweeps.push(sweep);
  }
  return sweeps;
}

/** The adapter of a store of any kind, if it has one (pi's stores are the scanner's). */
export async function adapterOf(kind: StoreKind): Promise<StoreAdapter | undefined> {
  return kind === "pi" ? undefined : storeAdapter(kind);
}

/** Sessions the stores' agents say are live, beyond open files: id → how we know. */
export async function liveSessionsOf(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
): Promise<Map<string, string>> {
  const live = new Map<string, string>();
  for (const store of stores) {
    if (store.kind === "pi") continue;
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
    if (store.kind === "pi") continue;
    const custody = (await storeAdapter(store.kind)).custody;
    const blocked = custody?.blocked(env);
    rules.set(store.root, {
      way: custody ? "link" : "rename",
      ...(blocked ? { blocked } : {}),
      ...(custody ? { applies: custody.takes } : {}),
    });
  }
  return rules;
}
