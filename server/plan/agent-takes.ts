// Nothing outside the selection, ever: where an agent's own command deletes a session (Codex's
// `codex delete`, after we took our copy), that command may take more than the session as our scan
// sees it — the agent's own records decide, and our scan can miss what they say (a Codex subagent
// whose rollout lost its header is a session of its own to us, and Codex deletes it with its
// spawner). So the agent is asked (its adapter's `alsoDeletes`) as every plan's inputs are gathered,
// and each thing it names is either a session that goes in the same delete — then it is taken into
// the chosen session's item: moved, journaled and restored with it, as one — or the chosen session
// stays, with one plain reason: a plan leaves it out (plan/movable.ts) as it leaves out what cannot
// move, so the count a user confirms is the count that moves. The engine asks again under its lock,
// on its fresh scan, and refuses by the same judgment: it never trusts the plan.
import { statSync } from "node:fs";
import type { Candidate, Plan } from "../../shared/plan.js";
import type { ScanReport } from "../../shared/scan-report.js";
import {
  AGENT_LABELS,
  type Fingerprint,
  type SessionRecord,
  type StoreRef,
} from "../../shared/session-record.js";
import { sessionTitle } from "../../shared/session-title.js";
import type { AlsoDeleted, StoreReader } from "../stores/adapter-types.js";
import { joinFingerprints } from "../stores/bundle.js";
import { storeAdapter } from "../stores/store-adapter.js";

/** A session an agent's own delete takes with a chosen one: it goes in the chosen one's item. */
export type TakenWith = NonNullable<Candidate["alsoDeletes"]>[number] & {
  sizeBytes: number;
  /** Whose delete takes it: "Codex". */
  agent: string;
};

/**
 * What becomes of a chosen session whose agent's delete takes more: what goes with it, or why it
 * stays (`refused`, about it alone) under one reason shared by every such session (`group`).
 */
export type AgentTake = { takes: TakenWith[] } | { refused: string; group: string };

/**
 * What each session's agent's own delete would also take, by session id: only sessions that take
 * something, or whose agent could not be asked (a string: why).
 */
export type AgentAnswers = ReadonlyMap<string, readonly AlsoDeleted[] | string>;

/**
 * What the agents' own records said at earlier looks, by store, with the state of the files they
 * were read from: a long-lived caller (the dashboard's looks) keeps one, and asks an agent again
 * only once one of those files changed. The engine never passes one: it asks afresh, under its lock.
 */
export type AgentRecordsMemory = Map<string, { files: string; records: unknown }>;

/** The state of `paths` as stat sees it: any write, rename or replacement changes it. */
function filesState(paths: readonly string[]): string {
  return paths
    .map((path) => {
      const s = statSync(path, { bigint: true, throwIfNoEntry: false });
      return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : "-";
    })
    .join("|");
}

/** What `read` reads of an agent's records at `store`: kept in `memory` while its `files` are unchanged. */
async function agentRecordsOf(
  read: NonNullable<StoreReader["agentRecords"]>,
  files: StoreReader["agentRecordFiles"],
  store: StoreRef,
  env: NodeJS.ProcessEnv,
  memory: AgentRecordsMemory | undefined,
): Promise<unknown> {
  if (!memory || !files) return read(store.root, env);
  const key = `${store.kind}:${store.root}`;
  // Taken before the read: a change while it reads makes the next look read again.
  const state = filesState(files(store.root, env));
  const kept = memory.get(key);
  if (kept?.files === state) return kept.records;
  const records = await read(store.root, env);
  // An agent that could not be asked (a string) is asked again next time: its files may not be why.
  if (typeof records === "string") memory.delete(key);
  else memory.set(key, { files: state, records });
  return records;
}

/**
 * Each agent that deletes by its own command asked, once per store, about every session of it: one
 * read of its records per store (Codex: its state database, read-only), without blocking — none
 * where `memory` holds a read of unchanged files.
 */
export async function askAgents(
  report: Pick<ScanReport, "stores" | "sessions" | "problems">,
  env: NodeJS.ProcessEnv,
  memory?: AgentRecordsMemory,
): Promise<AgentAnswers> {
  const answers = new Map<string, readonly AlsoDeleted[] | string>();
  for (const store of report.stores) {
    const adapter = await storeAdapter(store.kind);
    const { alsoDeletes, agentRecords } = adapter;
    if (!alsoDeletes || !agentRecords) continue;
    const records = report.sessions.filter((s) => s.store.kind === store.kind && s.store.root === store.root);
    if (records.length === 0) continue;
    const problems = report.problems.filter((p) => p.path.startsWith(`${store.root}/`));
    const ids = records.map((r) => r.id);
    const read = await agentRecordsOf(agentRecords, adapter.agentRecordFiles, store, env, memory);
    const answer = alsoDeletes({ records, problems }, ids, read);
    if (typeof answer === "string") for (const id of ids) answers.set(id, answer);
    else for (const [id, takes] of answer) if (takes.length > 0) answers.set(id, takes);
  }
  return answers;
}

/** The answers about `ids` alone. */
function answersFor(answers: AgentAnswers, ids: Iterable<string>): AgentAnswers {
  const only = new Map<string, readonly AlsoDeleted[] | string>();
  for (const id of ids) {
    const answer = answers.get(id);
    if (answer !== undefined) only.set(id, answer);
  }
  return only;
}

/**
 * The answers judged (pure): a session whose agent's delete takes only sessions that go too keeps
 * them as `takes`; one that would take anything else is refused, said plainly, under one reason for
 * all such sessions of its agent (`group`). `stays` words why a session is not going ("is not
 * selected…", "stays (pinned: pinned by you)"); undefined: it goes. Only sessions that take
 * something, or are refused, are in the answer.
 */
export function judgeTakes(
  answers: ReadonlyMap<string, readonly AlsoDeleted[] | string>,
  byId: ReadonlyMap<string, SessionRecord>,
  stays: (id: string) => string | undefined,
): Map<string, AgentTake> {
  const refused = new Map<string, string>();
  const agentOf = (id: string) => {
    const kind = byId.get(id)?.store.kind;
    return kind ? AGENT_LABELS[kind] : "its agent";
  };
  const named = (take: AlsoDeleted) => {
    const session = take.session === undefined ? undefined : byId.get(take.session);
    return session ? `${take.what} (session ${session.id}, “${sessionTitle(session).title}”)` : take.what;
  };
  const alsoDeletes = (id: string) => `${agentOf(id)}'s own delete of it would also delete`;
  const group = (id: string) =>
    `${agentOf(id)}'s own delete would also delete something that is not going with it`;
  // First what stays for its own sake (a file that is no session, a session not going): the plain
  // reason. A session taken along takes what it takes too, so this finds the cause of any refusal.
  for (const [id, answer] of answers) {
    if (typeof answer === "string") {
      refused.set(
        id,
        `could not ask ${agentOf(id)} what its own delete of it would also delete (${answer}); it is not deleted without knowing`,
      );
      continue;
    }
    for (const take of answer) {
      const why =
        take.session === undefined
          ? `which is not a session that can go with it (${take.path ?? "no file"})`
          : stays(take.session) && `which ${stays(take.session)}`;
      if (why) {
        refused.set(id, `${alsoDeletes(id)} ${named(take)}, ${why}`);
        break;
      }
    }
  }
  // Then what would take a session refused above.
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, answer] of answers) {
      if (refused.has(id) || typeof answer === "string") continue;
      const take = answer.find((t) => t.session !== undefined && refused.has(t.session));
      if (take) {
        refused.set(id, `${alsoDeletes(id)} ${named(take)}, which stays: ${refused.get(take.session!)}`);
        changed = true;
      }
    }
  }
  const judged = new Map<string, AgentTake>();
  for (const [id, answer] of answers) {
    const why = refused.get(id);
    if (why !== undefined)
      judged.set(id, { refused: why, group: typeof answer === "string" ? why : group(id) });
    else if (typeof answer !== "string" && answer.length > 0)
      judged.set(id, {
        takes: answer.flatMap((take) => {
          const session = byId.get(take.session!);
          return session
            ? [
                {
                  id: session.id,
                  path: session.path,
                  title: sessionTitle(session).title,
                  sizeBytes: session.sizeBytes,
                  what: take.what,
                  agent: agentOf(id),
                },
              ]
            : [];
        }),
      });
  }
  return judged;
}

/**
 * Which session's item each taken session goes in: the first in `order` that takes it and is not
 * itself taken (an agent's answer covers everything below, so the top one takes the whole tree; a
 * cycle in the agent's records is broken at its first member).
 */
export function takenInto(
  order: readonly string[],
  judged: ReadonlyMap<string, AgentTake>,
): Map<string, string> {
  const goes = (id: string) => {
    const take = judged.get(id);
    return take && "takes" in take ? take.takes : [];
  };
  const taken = new Set(order.flatMap((id) => goes(id).map((t) => t.id)));
  const into = new Map<string, string>();
  const own = (id: string) => {
    for (const t of goes(id)) if (t.id !== id && !into.has(t.id)) into.set(t.id, id);
  };
  for (const id of order) if (!taken.has(id)) own(id);
  for (const id of order) if (!into.has(id)) own(id);
  return into;
}

/** The parts of a session that a move carries: what a taken session adds to its taker's item. */
type Movable = Pick<SessionRecord, "id" | "path" | "sizeBytes" | "bundle">;

/**
 * The engine's step (delete/decide.ts): the chosen sessions, judged on their agents' answers
 * (`askAgents`, asked under the lock). A refused one leaves the list (`refused`: its reason); a taken
 * one leaves it for the item of the session that takes it, whose record and fingerprint then cover
 * its files too (`merged`, also with the forks that read from any of them: it moves after them).
 * `stays` as for `judgeTakes`. Pure.
 */
export function takeAlong<T extends { record: Movable; fingerprint: Fingerprint }>(
  chosen: readonly T[],
  sessions: readonly SessionRecord[],
  answers: ReadonlyMap<string, readonly AlsoDeleted[] | string>,
  stays: (id: string) => string | undefined,
): {
  chosen: T[];
  refused: Array<{ item: T; reason: string }>;
  /** Each taking session's taken sessions, as they go in its item. */
  taken: Map<string, TakenWith[]>;
  /** The scan's record of each taking session, with what it takes in its bundle, size and forks. */
  merged: SessionRecord[];
} {
  // No agent named anything (every pi, Claude Code and Gemini CLI store): nothing to index.
  if (answers.size === 0) return { chosen: [...chosen], refused: [], taken: new Map(), merged: [] };
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const ids = chosen.map((c) => c.record.id);
  // Only the chosen ones' answers are judged (the agents may have been asked about more).
  const going = new Set(ids);
  const judged = judgeTakes(new Map([...answers].filter(([id]) => going.has(id))), byId, stays);
  const into = takenInto(ids, judged);
  const refused: Array<{ item: T; reason: string }> = [];
  const kept: T[] = [];
  const taken = new Map<string, TakenWith[]>();
  const merged: SessionRecord[] = [];
  const entry = new Map(chosen.map((c) => [c.record.id, c]));
  for (const item of chosen) {
    const id = item.record.id;
    const take = judged.get(id);
    if (take && "refused" in take) refused.push({ item, reason: take.refused });
    else if (!into.has(id)) kept.push(item);
  }
  for (const [takenId, takerId] of into)
    taken.set(takerId, [...(taken.get(takerId) ?? []), takenOf(judged, takerId, takenId)]);
  const ready = kept.map((item) => {
    const along = taken.get(item.record.id);
    if (!along) return item;
    const others = along.map((t) => entry.get(t.id)!);
    const record = {
      ...item.record,
      bundle: [
        ...(item.record.bundle ?? []),
        ...others.flatMap((o) => [o.record.path, ...(o.record.bundle ?? [])]),
      ],
      sizeBytes: item.record.sizeBytes + others.reduce((n, o) => n + o.record.sizeBytes, 0),
    };
    const scanned = byId.get(item.record.id);
    if (scanned) {
      const inItem = new Set([item.record.id, ...along.map((t) => t.id)]);
      const neededBy = [scanned, ...along.map((t) => byId.get(t.id))]
        .flatMap((r) => r?.neededBy ?? [])
        .filter((id) => !inItem.has(id));
      merged.push({
        ...scanned,
        bundle: record.bundle,
        sizeBytes: record.sizeBytes,
        ...(neededBy.length > 0 ? { neededBy: [...new Set(neededBy)] } : {}),
      });
    }
    return {
      ...item,
      record,
      fingerprint: joinFingerprints(
        item.fingerprint,
        others.map((o) => o.fingerprint),
      ),
    };
  });
  return { chosen: ready, refused, taken, merged };
}

const takenOf = (judged: ReadonlyMap<string, AgentTake>, taker: string, taken: string): TakenWith => {
  const take = judged.get(taker);
  return (take && "takes" in take ? take.takes : []).find((t) => t.id === taken)!;
};

/**
 * The candidates of `plan` that must stay because their agent's own delete would take what does
 * not go (judged against the plan itself — a session goes when it is a candidate too; a kept one
 * stays for its reason): each with the one reason it is left out under (`reason`, shared by every
 * such candidate of its agent) and its own (`detail`). For `movablePlanSteps`, which leaves them out
 * and evaluates the plan again; `byHand`: the plan is a hand selection's.
 */
export function agentRefusals(
  plan: Plan,
  answers: AgentAnswers,
  byId: ReadonlyMap<string, SessionRecord>,
  byHand: boolean,
): Map<string, { reason: string; detail?: string }> {
  const asked = answersFor(
    answers,
    plan.candidates.map((c) => c.id),
  );
  const refusals = new Map<string, { reason: string; detail?: string }>();
  if (asked.size === 0) return refusals;
  for (const [id, take] of judgeTakes(asked, byId, staysIn(plan, byHand)))
    if ("refused" in take)
      // An agent that could not be asked: the reason is the whole store's, with no detail of its own.
      refusals.set(
        id,
        take.refused === take.group ? { reason: take.group } : { reason: take.group, detail: take.refused },
      );
  return refusals;
}

/**
 * A plan with what each candidate's agent's own delete takes with it (`alsoDeletes`): sessions
 * that are candidates too, which move in its item. For `plan`, `clean` and the dashboard's previews.
 * The plan left out every candidate whose delete would take more (`agentRefusals`).
 */
export function withAgentTakes(
  plan: Plan,
  report: Pick<ScanReport, "sessions">,
  answers: AgentAnswers,
): Plan {
  const asked = answersFor(
    answers,
    plan.candidates.map((c) => c.id),
  );
  if (asked.size === 0) return plan;
  const byId = new Map(report.sessions.map((s) => [s.id, s]));
  // Only what is taken is read here: how a refusal would be worded does not matter.
  const judged = judgeTakes(asked, byId, staysIn(plan, false));
  return {
    ...plan,
    candidates: plan.candidates.map((c) => {
      const take = judged.get(c.id);
      if (!take || !("takes" in take) || take.takes.length === 0) return c;
      return {
        ...c,
        alsoDeletes: take.takes.map(({ sizeBytes: _bytes, agent: _agent, ...t }) => t),
      };
    }),
  };
}

/** Why a session is not going in `plan`'s delete, worded for `judgeTakes`. */
function staysIn(plan: Plan, byHand: boolean): (id: string) => string | undefined {
  const candidates = new Set(plan.candidates.map((c) => c.id));
  let kept: Map<string, Plan["kept"][number]> | undefined;
  return (id) => {
    if (candidates.has(id)) return undefined;
    // Made on the first question: most plans take nothing, and the kept list is the whole store.
    kept ??= new Map(plan.kept.map((k) => [k.id, k]));
    const k = kept.get(id);
    return staysBecause(k && k.reason !== "within-policy" ? `${k.reason}: ${k.detail}` : undefined, byHand);
  };
}

/**
 * A session that is not going, worded for `judgeTakes`: the reason it stays (its keep, or why the
 * engine skipped it), or that nobody chose it — by hand, or by the policy.
 */
export function staysBecause(why: string | undefined, byHand: boolean): string {
  if (why !== undefined) return `stays (${why})`;
  return byHand
    ? "is not selected: select it too, and both go to the trash together"
    : "is not chosen by the policy";
}
