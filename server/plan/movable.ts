// Whether a session can be moved now, whole, as the deletion engine would move it: its store's way
// (each part renamed into the trash, or hard-linked into the quarantine), the agent's own tool
// where its store needs one, and for every part — its file or folder, each part of its bundle — the
// rights the move needs and the file system it may not leave. A preview leaves out what fails, with
// the reason, so that the count a user confirms is the count that moves; the engine asks the same
// before an item's intent. The facts are probed (fs/rename-rights.ts); `refusalOf` decides, pure.
import { dirname } from "node:path";
import type { Config } from "../../shared/config.js";
import type { Candidate, LeftOut, Plan } from "../../shared/plan.js";
import { pacer, type Steps } from "../../shared/steps.js";
import { isFolderSession, type SessionRecord, type StoreRef } from "../../shared/session-record.js";
import { homeTrashDir } from "../fs/desktop-trash.js";
import {
  type EntryFacts,
  type FolderFacts,
  type MoveWay,
  moveRefusal,
  renameProbe,
} from "../fs/rename-rights.js";
import type { StoreMoveRule } from "../stores/adapter-types.js";
import { moveRulesOf } from "../stores/store-adapter.js";
import { statePaths } from "../state/state-dir.js";

/** What moving these stores' sessions depends on beside the config: each store's rule, and the places. */
export interface MoveContext {
  /** By store root; a store not named moves by renames and needs no tool (pi's). */
  stores: ReadonlyMap<string, StoreMoveRule>;
  /** The quarantine when the config names none. */
  defaultQuarantine: string;
  /** The desktop's home trash. */
  trash: string;
}

/** The move context of these stores, in this environment (each store's adapter asked once). */
export async function moveContextOf(
  stores: readonly StoreRef[],
  env: NodeJS.ProcessEnv,
): Promise<MoveContext> {
  return {
    stores: await moveRulesOf(stores, env),
    defaultQuarantine: statePaths(env).quarantine,
    trash: homeTrashDir(env),
  };
}

/** How `item` is moved: its store's rule where it applies to it, else renames that need no tool. */
function ruleOf(context: MoveContext, item: Pick<MoveParts, "path" | "store">): StoreMoveRule {
  const rule = context.stores.get(item.store.root);
  return rule && (!rule.applies || rule.applies(item.path)) ? rule : { way: "rename" };
}

/** What the engine moves of a session: its own file or folder, and the files that go with it. */
export type MoveParts = Pick<SessionRecord, "path" | "store"> &
  Partial<Pick<SessionRecord, "bundle" | "metaFile" | "folder">>;

/** One part as the decision sees it: the entry, the folder it leaves, where it goes and how. */
export interface PartFacts {
  entry: EntryFacts;
  from: FolderFacts;
  /** The folder it goes into, or the nearest existing one above (made on first use); undefined: none. */
  to: FolderFacts | undefined;
  place: "quarantine" | "trash";
  way: MoveWay;
}

/** Why an item cannot be moved whole now (pure): its store's block, else its first part that cannot go. */
export function refusalOf(input: {
  blocked?: string | undefined;
  parts: readonly PartFacts[];
  quarantine: string;
  me: number;
}): string | undefined {
  if (input.blocked) return input.blocked;
  const q = input.quarantine;
  for (const { entry, from, to, place, way } of input.parts) {
    if (!to) return `no folder above ${place === "trash" ? "the desktop trash" : q} exists to make it in`;
    if (place === "quarantine" && way !== "rename-or-copy" && entry.dev !== to.dev)
      return way === "link"
        ? `${entry.path} is copied into the quarantine (${q}) as a hard link, and the quarantine is on another file system; set deletion.quarantineDir to a folder on the same file system`
        : `${entry.path} is a folder on another file system than the quarantine (${q}), and a folder moves only as one rename; set deletion.quarantineDir to a folder on the same file system`;
    const refused = moveRefusal(entry, from, to, way, input.me);
    if (refused) return `${refused.problem}; run \`${refused.fix}\` and try again`;
  }
  return undefined;
}

/**
 * The check for one decision (a preview, a deletion): each fact probed once, each item judged once.
 * Probe again for the next decision: a fact kept longer could be stale.
 */
export function moveChecker(
  context: MoveContext,
  deletion: Pick<Config["deletion"], "target" | "quarantineDir">,
  me = process.getuid?.() ?? -1,
) {
  const probe = renameProbe();
  const quarantine = deletion.quarantineDir ?? context.defaultQuarantine;
  /** Each item's verdict, by the record itself (null: it can move). */
  const judged = new WeakMap<MoveParts, string | null>();
  const judge = (item: MoveParts): string | undefined => {
    const rule = ruleOf(context, item);
    if (rule.blocked) return refusalOf({ blocked: rule.blocked, parts: [], quarantine, me });
    const linked = rule.way === "link";
    const inQuarantine = probe.nearestFolder(quarantine);
    // The desktop trash when it can be written; else the engine falls back to the quarantine.
    const trash = probe.nearestFolder(context.trash);
    const own =
      deletion.target === "quarantine" || linked ? inQuarantine : trash?.writable ? trash : inQuarantine;
    const parts: PartFacts[] = [];
    for (const path of [item.path, ...(item.metaFile ? [item.metaFile] : []), ...(item.bundle ?? [])]) {
      const entry = probe.entry(path, { linked, knownFile: path === item.path && !isFolderSession(item) });
      const from = probe.folder(dirname(path));
      // A part gone since the scan is not this check's: the engine's fingerprint says so.
      if (!entry || !from) continue;
      const to = path === item.path ? own : inQuarantine;
      parts.push({
        entry,
        from,
        to,
        place: to === inQuarantine ? "quarantine" : "trash",
        way: linked ? "link" : entry.kind === "folder" ? "rename" : "rename-or-copy",
      });
    }
    return refusalOf({ parts, quarantine, me });
  };
  return {
    /** Why `item` cannot be moved whole now, or undefined when every part of it can. */
    whyNot(item: MoveParts): string | undefined {
      let verdict = judged.get(item);
      if (verdict === undefined) judged.set(item, (verdict = judge(item) ?? null));
      return verdict ?? undefined;
    },
  };
}

export type MoveChecker = ReturnType<typeof moveChecker>;

/**
 * A plan that counts only what can move, as steps (shared/steps.ts). It is evaluated, its candidates
 * are checked, and it is evaluated again with those that cannot move kept (`cannot-move`) — and
 * every session of a store none of whose sessions can move — until every candidate can: where a
 * quota needs the bytes, the policy picks others in their place, and the plan's totals are what
 * will really be left. Once every candidate of a plan can move, `refusals` judges that plan as a
 * whole (an agent's own delete that would take a session that is not going): what it refuses is
 * kept the same way, and the plan evaluated again. What it chose and cannot move is in `leftOut`,
 * once per reason. Without `mover` only `refusals` leaves anything out.
 */
export function* movablePlanSteps(
  evaluate: (cannotMove: ReadonlyMap<string, string>) => Steps<Plan>,
  /** The sessions by id. */
  records: ReadonlyMap<string, MoveParts>,
  mover: { check: MoveChecker; context: MoveContext } | undefined,
  /** A plan's candidates that must stay anyway: each with its group's reason and its own detail. */
  refusals?: (plan: Plan) => ReadonlyMap<string, { reason: string; detail?: string }>,
): Steps<Plan> {
  let plan = yield* evaluate(new Map());
  const leftOut = new Map<string, { candidate: Candidate; reason: string; detail?: string }>();
  const checked = new Set<string>();
  const pause = pacer();
  for (;;) {
    let found = false;
    if (mover)
      for (const candidate of plan.candidates) {
        if (checked.has(candidate.id)) continue;
        checked.add(candidate.id);
        const record = records.get(candidate.id);
        const reason = record && mover.check.whyNot(record);
        if (reason) {
          leftOut.set(candidate.id, { candidate, reason });
          found = true;
        }
        if (pause()) yield;
      }
    const refused = !found && refusals ? refusals(plan) : undefined;
    for (const candidate of refused?.size ? plan.candidates : []) {
      const why = refused!.get(candidate.id);
      if (why && !leftOut.has(candidate.id)) {
        leftOut.set(candidate.id, { candidate, ...why });
        found = true;
      }
    }
    if (!found) break;
    // A refused session is kept with its own detail: the table says why it stays.
    const cannotMove = new Map([...leftOut].map(([id, l]) => [id, l.detail ?? l.reason]));
    if (mover)
      for (const [id, record] of records) {
        const { blocked } = ruleOf(mover.context, record);
        if (blocked && !cannotMove.has(id)) cannotMove.set(id, blocked);
      }
    plan = yield* evaluate(cannotMove);
  }
  return leftOut.size === 0
    ? plan
    : { ...plan, leftOut: groupLeftOut([...leftOut.values()].map((l) => ({ ...l, session: l.candidate }))) };
}

/** Sessions left out, one group per reason, in the order the reasons came; each with its own detail, if any. */
export function groupLeftOut(
  items: ReadonlyArray<{
    session: Pick<Candidate, "id" | "path" | "sizeBytes"> & { title?: string | undefined };
    reason: string;
    detail?: string | undefined;
  }>,
): LeftOut[] {
  const groups = new Map<string, LeftOut>();
  for (const { session: s, reason, detail } of items) {
    const group = groups.get(reason) ?? { reason, sessions: [] };
    group.sessions.push({
      id: s.id,
      path: s.path,
      sizeBytes: s.sizeBytes,
      ...(s.title !== undefined ? { title: s.title } : {}),
      ...(detail !== undefined ? { detail } : {}),
    });
    groups.set(reason, group);
  }
  return [...groups.values()];
}
