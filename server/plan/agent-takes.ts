// Nothing outside the selection, ever: where an agent's own command deletes a session (Codex's
// `codex delete`, after we took our copy), that command may take more than the session as our scan
// sees it — the agent's own records decide, and our scan can miss what they say (a Codex subagent
// whose rollout lost its header is a session of its own to us, and Codex deletes it with its
// spawner). So the agent is asked (its adapter's `alsoDeletes`) before a delete and for its preview,
// and each thing it names is either a session that goes in the same delete — then it is taken into
// the chosen session's item: moved, journaled and restored with it, as one — or the chosen session
// is refused, with one plain reason. The engine asks under its lock on its fresh scan; `plan`,
// `clean` and the dashboard's wizard ask the same way and show the answer.
import type { Candidate, Plan } from "../../shared/plan.js";
import type { ScanReport } from "../../shared/scan-report.js";
import { AGENT_LABELS, type Fingerprint, type SessionRecord } from "../../shared/session-record.js";
import { sessionTitle } from "../../shared/session-title.js";
import type { AlsoDeleted } from "../stores/adapter-types.js";
import { joinFingerprints } from "../stores/bundle.js";
import { storeAdapter } from "../stores/store-adapter.js";

/** A session an agent's own delete takes with a chosen one: it goes in the chosen one's item. */
export type TakenWith = NonNullable<Candidate["alsoDeletes"]>[number] & {
  sizeBytes: number;
  /** Whose delete takes it: "Codex". */
  agent: string;
};

/** What becomes of a chosen session whose agent's delete takes more: what goes with it, or why it stays. */
export type AgentTake = { takes: TakenWith[] } | { refused: string };

/** Each agent's answer for the chosen sessions of its stores (only agents that delete by their own command). */
export async function askAgents(
  report: Pick<ScanReport, "stores" | "sessions" | "problems">,
  ids: Iterable<string>,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, readonly AlsoDeleted[] | string>> {
  const wanted = new Set(ids);
  const answers = new Map<string, readonly AlsoDeleted[] | string>();
  for (const store of report.stores) {
    if (store.kind === "pi") continue;
    const records = report.sessions.filter((s) => s.store.kind === store.kind && s.store.root === store.root);
    const chosen = records.filter((r) => wanted.has(r.id)).map((r) => r.id);
    if (chosen.length === 0) continue;
    const adapter = await storeAdapter(store.kind);
    if (!adapter.alsoDeletes) continue;
    const problems = report.problems.filter((p) => p.path.startsWith(`${store.root}/`));
    const answer = adapter.alsoDeletes(store.root, { records, problems }, chosen, env);
    for (const id of chosen) answers.set(id, typeof answer === "string" ? answer : (answer.get(id) ?? []));
  }
  return answers;
}

/**
 * The answers judged (pure): a session whose agent's delete takes only sessions that go too keeps
 * them as `takes`; one that would take anything else is refused, said plainly. `stays` words why a
 * session is not going ("is not selected…", "stays (pinned: pinned by you)"); undefined: it goes.
 * Only sessions that take something, or are refused, are in the answer.
 */
export function judgeTakes(
  answers: ReadonlyMap<string, readonly AlsoDeleted[] | string>,
  byId: ReadonlyMap<string, SessionRecord>,
  stays: (id: string) => string | undefined,
): Map<string, AgentTake> {
  const refused = new Map<string, string>();
  const agentOf = (id: string) => AGENT_LABELS[byId.get(id)?.store.kind ?? "pi"];
  const named = (take: AlsoDeleted) => {
    const session = take.session === undefined ? undefined : byId.get(take.session);
    return session ? `${take.what} (session ${session.id}, “${sessionTitle(session).title}”)` : take.what;
  };
  const alsoDeletes = (id: string) => `${agentOf(id)}'s own delete of it would also delete`;
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
    if (why !== undefined) judged.set(id, { refused: why });
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

/** Each chosen session's answer, asked of its agent and judged (`stays` as for `judgeTakes`). */
export async function agentTakesOf(
  report: Pick<ScanReport, "stores" | "sessions" | "problems">,
  ids: readonly string[],
  stays: (id: string) => string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, AgentTake>> {
  const byId = new Map(report.sessions.map((s) => [s.id, s]));
  return judgeTakes(await askAgents(report, ids, env), byId, stays);
}

/** A chosen session as a preview shows it: with what goes with it, or why it is refused. */
export function withAnswer<T extends object>(
  chosen: T,
  take: AgentTake | undefined,
): T & Pick<Candidate, "alsoDeletes" | "refused"> {
  if (!take) return chosen;
  if ("refused" in take) return { ...chosen, refused: take.refused };
  return { ...chosen, alsoDeletes: take.takes.map(({ sizeBytes: _bytes, agent: _agent, ...t }) => t) };
}

/**
 * A plan with each candidate's answer: what its agent's own delete takes with it (`alsoDeletes`) or
 * why executing it will be refused (`refused`), judged against the plan itself — a session goes
 * when it is a candidate too; a kept one stays for its reason. For `plan`, `clean` and the wizard.
 */
export async function withAgentTakes(plan: Plan, report: ScanReport, env: NodeJS.ProcessEnv): Promise<Plan> {
  if (plan.candidates.length === 0) return plan;
  const candidates = new Set(plan.candidates.map((c) => c.id));
  const kept = new Map(plan.kept.map((k) => [k.id, k]));
  const byHand = plan.candidates.some((c) => c.rule === "selected");
  const judged = await agentTakesOf(
    report,
    [...candidates],
    (id) => staysInPlan(id, candidates, kept.get(id), byHand),
    env,
  );
  if (judged.size === 0) return plan;
  return { ...plan, candidates: plan.candidates.map((c) => withAnswer(c, judged.get(c.id))) };
}

/** Why a session is not going in a plan's delete, worded for `judgeTakes`. */
function staysInPlan(
  id: string,
  candidates: ReadonlySet<string>,
  kept: Pick<Plan["kept"][number], "reason" | "detail"> | undefined,
  byHand: boolean,
): string | undefined {
  if (candidates.has(id)) return undefined;
  return staysBecause(
    kept && kept.reason !== "within-policy" ? `${kept.reason}: ${kept.detail}` : undefined,
    byHand,
  );
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
