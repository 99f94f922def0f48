// What a forked session starts from: a written session's entries, copied the way pi forks and branches.
import type { Entry, SessionPlan } from "./session-builder.js";
import type { Random } from "./seeded-random.js";

/** What a written session's entries are, to fork it later. */
interface EntryFacts {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
  timeMs: number;
  targetId?: string;
}

/** A session as written: its lines after the header, and enough facts to fork it. */
export interface WrittenSession {
  path: string;
  plan: SessionPlan;
  lines: string[];
  facts: EntryFacts[];
  lastMs: number;
}

export function factsOf(entries: readonly Entry[], startMs: number): EntryFacts[] {
  return entries.map((entry) => {
    const role = (entry.message as { role?: string } | undefined)?.role;
    return {
      id: entry.id,
      parentId: (entry.parentId as string | null | undefined) ?? null,
      type: entry.type,
      ...(role ? { role } : {}),
      timeMs: startMs + (entry.timestamp as number),
      ...(typeof entry.targetId === "string" ? { targetId: entry.targetId } : {}),
    };
  });
}

/** What a fork starts from: the copied lines, the entry it continues from, and the ids already used. */
interface ForkStart {
  lines: string[];
  leaf: string;
  ids: string[];
  copiedUntilMs: number;
}

/** Like pi's `forkFrom`: every entry of the parent, as it is. */
export function copyWholeSession(parent: WrittenSession): ForkStart {
  const last = parent.facts.at(-1)!;
  return {
    lines: [...parent.lines],
    leaf: last.id,
    ids: parent.facts.map((fact) => fact.id),
    copiedUntilMs: parent.lastMs,
  };
}

/**
 * Like pi's `createBranchedSession`: the path from the first entry to a reply in the middle,
 * without labels, then the labels of entries on that path re-added after it with new ids.
 */
export function copyPathForFork(parent: WrittenSession, random: Random): ForkStart {
  const replies = parent.facts.flatMap((fact, index) => (fact.role === "assistant" ? [index] : []));
  const leafIndex = replies[Math.floor(replies.length * 0.6)] ?? parent.facts.length - 1;
  const indexById = new Map(parent.facts.map((fact, index) => [fact.id, index]));
  const path: number[] = [];
  for (let at: number | undefined = leafIndex; at !== undefined;) {
    path.unshift(at);
    const parentId: string | null = parent.facts[at]!.parentId;
    at = parentId === null ? undefined : indexById.get(parentId);
  }
  const kept = path.filter((index) => parent.facts[index]!.type !== "label");
  const lines = kept.map((index) => parent.lines[index]!);
  const ids = new Set(kept.map((index) => parent.facts[index]!.id));
  let leaf = parent.facts[kept.at(-1)!]!.id;
  let copiedUntilMs = parent.facts[leafIndex]!.timeMs;
  // The latest label of each entry on the path, in the order pi's label map holds them.
  const labels = new Map<string, { label: string; timestamp: string }>();
  for (const [index, fact] of parent.facts.entries()) {
    if (fact.type !== "label" || !fact.targetId || !ids.has(fact.targetId)) continue;
    const entry = JSON.parse(parent.lines[index]!) as { label?: string; timestamp: string };
    if (entry.label) labels.set(fact.targetId, { label: entry.label, timestamp: entry.timestamp });
    else labels.delete(fact.targetId);
  }
  for (const [targetId, { label, timestamp }] of labels) {
    let id = random.hex(8);
    while (ids.has(id)) id = random.hex(8);
    ids.add(id);
    lines.push(JSON.stringify({ type: "label", id, parentId: leaf, timestamp, targetId, label }));
    leaf = id;
    copiedUntilMs = Math.max(copiedUntilMs, Date.parse(timestamp));
  }
  return { lines, leaf, ids: [...ids], copiedUntilMs };
}
