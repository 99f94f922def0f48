// What a deletion will do, decided apart from doing it (restic's PlanPrune before its Execute): from
// the facts gathered under the lock — a fresh scan, the config as the file says now, the pins, the
// live sessions, each agent's answer about what its own delete takes, the move check's verdicts, the
// stores' move rules — and the request, which items go, whole, in what order and how, and which stay
// and why. Pure: no disk, no clock (the time is a fact), so every reason a session stays is tested
// with plain objects (decide.test.ts); execute.ts carries the plan out.
import { basename } from "node:path";
import type { Config } from "../../shared/config.js";
import { emptiesStore, exemptions } from "../../shared/policy.js";
import type { ScanReport } from "../../shared/scan-report.js";
import type { Fingerprint, SessionRecord } from "../../shared/session-record.js";
import type { SoftDeleteResult, TrashItem } from "../../shared/trash.js";
import { sameIdentity } from "../fs/file-identity.js";
import { staysBecause, takeAlong, type TakenWith } from "../plan/agent-takes.js";
import type { MoveParts } from "../plan/movable.js";
import { type Pin, pinnedIds } from "../state/protection-list.js";
import type { AlsoDeleted, StoreMoveRule } from "../stores/adapter-types.js";
import { detachableParts, orphanTarget, partStays } from "../stores/detachable.js";

/** What the engine moves: a session, a part of one, or an orphaned index file. */
export type MoveTarget = Pick<
  SessionRecord,
  "id" | "path" | "namespace" | "store" | "sizeBytes" | "metaFile" | "bundle" | "folder"
>;

/** What a deletion is asked to move. */
export interface DeleteRequest {
  /** The sessions to move, each with the fingerprint its preview showed (when there was a preview). */
  items: ReadonlyArray<{ id: string; fingerprint?: Fingerprint }>;
  dryRun?: boolean;
  /** Orphaned pi session-index files (by path, as the plan listed them) to move as well. */
  orphanedMeta?: readonly string[];
  /**
   * What chose the sessions, recorded in the audit log. "policy" and "auto-clean" move only what the
   * policy, evaluated again now, still chooses; "prune" (workspace pruning by age) lifts the keeps
   * that count sessions (the most recent, the last of a namespace, an emptied store).
   */
  via: "policy" | "selection" | "auto-clean" | "prune";
}

/** The facts a deletion is decided on, all gathered under the deletion lock. */
export interface DeleteInputs {
  /** The fresh scan: the ids are resolved against it, never taken as paths. */
  report: Pick<ScanReport, "sessions" | "orphanedMeta">;
  pins: readonly Pin[];
  /** Session id → how we know it is in use. */
  activeIds: ReadonlyMap<string, string>;
  /** The config as the file says now (valid: an invalid one refused the deletion before this). */
  config: Config;
  now: Date;
  /** Each requested session's agent's answer (plan/agent-takes.ts `askAgents`): what its own delete takes too. */
  agentAnswers: ReadonlyMap<string, readonly AlsoDeleted[] | string>;
  /** Each store's move rule, by root (absent: renames). */
  moveRules: ReadonlyMap<string, StoreMoveRule>;
  /** Why a target cannot be moved whole now (plan/movable.ts, the check the preview made), if so. */
  cannotMove: (target: MoveParts) => string | undefined;
  /**
   * For "policy" and "auto-clean": the policy evaluated again now — the ids it chooses, and why it
   * leaves out what it would have chosen (an agent's own delete that would take more), by id.
   */
  policyChoice?: { chosen: ReadonlySet<string>; leftOut: ReadonlyMap<string, string> };
  /** Each requested orphaned index file's fingerprint now (undefined: gone, or no regular file). */
  orphans: ReadonlyMap<string, Fingerprint | undefined>;
}

/** One item the plan moves. */
export interface PlannedItem {
  /** The scan's record (a taking session's with what it takes in its bundle), a part, or an orphaned index file. */
  record: MoveTarget;
  /** What it must still be, whole, just before it moves: what the preview showed, else what the scan saw. */
  fingerprint: Fingerprint;
  /** How it leaves: renamed into the trash, or handed over to its agent's own delete. */
  mover: "rename" | "agent";
  target: TrashItem["target"];
  /** Forks that read from it: an item its agent deletes moves only once every one of them has. */
  forks: readonly string[];
}

export interface DeletePlan {
  /** The config the request is judged by (the file's, with pruning's own rule). */
  config: Config;
  /** Set when nothing moves: the request is refused as a whole, said why. */
  refused?: string;
  /** What goes, in the order it moves: a session after every fork that reads from it. */
  items: PlannedItem[];
  /** What stays, said why. */
  skipped: SoftDeleteResult["skipped"];
  /** Each taking item's sessions that its agent's own delete takes with it (they are in its item). */
  taken: ReadonlyMap<string, TakenWith[]>;
  /** The sessions to look for after each agent's own delete: every one of them must still be there. */
  bystanders: ReadonlyArray<Pick<SessionRecord, "id" | "store" | "path" | "bundle">>;
}

/** The policy a request is judged by: the config's, with pruning's own rule. */
export function policyFor(via: DeleteRequest["via"], config: Config): Config {
  if (via !== "prune") return config;
  return {
    ...config,
    retention: { ...config.retention, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
  };
}

/** The rule a target moves by: its store's, where it applies to it, else renames. */
function ruleOf(rules: ReadonlyMap<string, StoreMoveRule>, target: MoveTarget): StoreMoveRule {
  const rule = rules.get(target.store.root);
  return rule && (!rule.applies || rule.applies(target.path)) ? rule : { way: "rename" };
}

/** How far down a chain of forks reading from it a session is: it moves after all of them. */
function forkDepth(
  record: MoveTarget,
  byId: ReadonlyMap<string, SessionRecord>,
  seen = new Set<string>(),
): number {
  const needed = byId.get(record.id)?.neededBy ?? [];
  if (needed.length === 0 || seen.has(record.id)) return 0;
  seen.add(record.id);
  return 1 + Math.max(...needed.map((id) => (byId.has(id) ? forkDepth(byId.get(id)!, byId, seen) : 0)));
}

/** The plan of a deletion request, on the facts gathered for it. */
export function decideDelete(inputs: DeleteInputs, request: DeleteRequest): DeletePlan {
  const config = policyFor(request.via, inputs.config);
  const sessions = inputs.report.sessions;
  const skipped: DeletePlan["skipped"] = [];
  const plan = (rest: Partial<DeletePlan>): DeletePlan => ({
    config,
    items: [],
    skipped,
    taken: new Map(),
    bystanders: [],
    ...rest,
  });
  let items = request.items;
  if (request.via === "auto-clean") {
    const { autoClean, dryRun, autoCleanMaxDeletesPerRun } = config.retention;
    if (!autoClean || (dryRun && !request.dryRun))
      return plan({
        refused: `auto-clean is ${autoClean ? "set to dry run" : "off"} in the config now; nothing was moved`,
      });
    items = items.slice(0, autoCleanMaxDeletesPerRun);
  }
  const byId = new Map(sessions.map((s) => [s.id, s]));
  // Parts a session lets go on their own (a resume twin): each an item by its own id.
  const parts = detachableParts(sessions);
  // A hand selection may take a family that moves together as one (see forksChosenToo): its forks go first.
  const exempt = exemptions({
    sessions,
    policy: config,
    pinnedIds: pinnedIds(inputs.pins),
    activeIds: inputs.activeIds,
    now: inputs.now,
    ...(request.via === "selection" ? { selection: new Set(items.map((i) => i.id)) } : {}),
  });
  const chosen: Array<{ record: MoveTarget; fingerprint: Fingerprint }> = [];
  const going = new Set<string>();
  const skip = (id: string, path: string | undefined, reason: string) =>
    skipped.push({ id, ...(path !== undefined ? { path } : {}), reason });
  for (const { id, fingerprint } of items) {
    const part = parts.get(id);
    const record = byId.get(id) ?? part?.record;
    const why = exempt.get(id) ?? (part && partStays(part, inputs.activeIds));
    // Whole or not at all: every part must be movable before the item gets an intent.
    const unmovable = record && !why ? inputs.cannotMove(record) : undefined;
    const rule = record && ruleOf(inputs.moveRules, record);
    const duplicate = record?.warnings.find((w) => w.code === "duplicate-id");
    if (!record) skip(id, undefined, "not found in the store (already gone?)");
    else if (why) skip(id, record.path, `${why.reason}: ${why.detail}`);
    else if (unmovable) skip(id, record.path, unmovable);
    else if (inputs.policyChoice && !inputs.policyChoice.chosen.has(id))
      // What the plan made now leaves out is said as it is, not as a change of the policy's mind.
      skip(
        id,
        record.path,
        inputs.policyChoice.leftOut.get(id) ??
          "no longer chosen by the policy (the config or the sessions changed since the preview)",
      );
    else if (record.warnings.some((w) => w.code === "non-utf8-name"))
      skip(id, record.path, "its file name is not valid UTF-8; rename it first");
    else if (fingerprint && !sameIdentity(fingerprint, record.fingerprint))
      skip(id, record.path, "changed since preview");
    else if (going.has(id)) continue;
    // The agent's own delete names the session by its id: with two sessions of that id it could take the other.
    else if (rule?.way === "link" && duplicate)
      skip(id, record.path, `${duplicate.message}: the agent's own delete could remove the wrong one`);
    else {
      going.add(id);
      chosen.push({ record, fingerprint: fingerprint ?? record.fingerprint });
    }
  }
  // Session-index files whose session is gone: only those the fresh scan still finds orphaned.
  const orphans = new Map((inputs.report.orphanedMeta ?? []).map((o) => [o.path, o]));
  for (const path of request.orphanedMeta ?? []) {
    const orphan = orphans.get(path);
    const fingerprint = inputs.orphans.get(path);
    const record = orphan && orphanTarget(orphan);
    const unmovable = record && fingerprint ? inputs.cannotMove(record) : undefined;
    if (!record || !fingerprint)
      skip(`meta:${basename(path)}`, path, "not an orphaned session-index file (any more)");
    else if (unmovable) skip(record.id, path, unmovable);
    else chosen.push({ record, fingerprint });
  }
  // What an agent's own delete takes with a session (plan/agent-takes.ts): a session it takes that
  // goes too joins that item (its files are in the item's); one whose delete would take anything
  // that does not go is refused, said why.
  const inItems = new Set(chosen.map((c) => c.record.id));
  const skippedWhy = new Map(skipped.map((s) => [s.id, s.reason]));
  const taken = takeAlong(chosen, sessions, inputs.agentAnswers, (id) => {
    if (inItems.has(id)) return undefined;
    const kept = exempt.get(id);
    const why = skippedWhy.get(id) ?? (kept && `${kept.reason}: ${kept.detail}`);
    return staysBecause(why, request.via === "selection");
  });
  for (const { item, reason } of taken.refused) skip(item.record.id, item.record.path, reason);
  chosen.splice(0, chosen.length, ...taken.chosen);
  for (const record of taken.merged) byId.set(record.id, record);
  // A session its agent deletes, whose forks read from it, goes after them (see forksChosenToo).
  chosen.sort((a, b) => forkDepth(a.record, byId) - forkDepth(b.record, byId));
  const refused = emptiesStore(
    sessions,
    new Set([...chosen.map((c) => c.record.id), ...[...taken.taken.values()].flat().map((t) => t.id)]),
    config.retention.allowEmptyStore,
  );
  if (refused) return plan({ refused: refused.message });
  const planned = chosen.map(({ record, fingerprint }): PlannedItem => {
    const linked = inputs.moveRules.get(record.store.root)?.way === "link";
    return {
      record,
      fingerprint,
      mover: ruleOf(inputs.moveRules, record).way === "link" ? "agent" : "rename",
      // Every item of a store whose agent deletes its sessions goes to the quarantine: our copy of
      // a session is a hard link there.
      target: config.deletion.target === "quarantine" || linked ? "quarantine" : "system-trash",
      forks: byId.get(record.id)?.neededBy ?? [],
    };
  });
  const watched = planned.some((p) => p.mover === "agent")
    ? sessions.filter((s) => inputs.moveRules.get(s.store.root)?.way === "link")
    : [];
  return plan({ items: planned, taken: taken.taken, bystanders: watched });
}
