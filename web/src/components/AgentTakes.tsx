// What the clean wizard's ticked candidates' agents will also delete with them — Codex deletes the
// threads a thread spawned, by its own database — each moved with its candidate, in one trash entry:
// the server asked the agent when it made the plan (server/plan/agent-takes.ts), and left out a
// candidate whose delete would take what does not go. One whose taken session is left unticked
// stays too: said here, and not counted (`notGoing`).
import type { Candidate } from "../../../shared/plan.js";
import { AGENT_LABELS } from "../../../shared/session-record.js";
import { SessionName } from "./SessionName.js";

export function AgentTakes({
  candidates,
  ticked,
}: {
  candidates: readonly Candidate[];
  ticked: ReadonlySet<string>;
}) {
  const shown = candidates.filter((c) => ticked.has(c.id) && c.alsoDeletes?.length);
  if (shown.length === 0) return null;
  return (
    <div class="banner warn" role="status" data-testid="agent-takes">
      <ul>
        {shown.map((c) => {
          const agent = AGENT_LABELS[c.store.kind];
          const name = (
            <>
              “<SessionName session={c} title={c.title} file={false} />”
            </>
          );
          const left = (c.alsoDeletes ?? []).find((t) => !ticked.has(t.id));
          return (c.alsoDeletes ?? []).map((t) => (
            <li key={`${c.id} ${t.id}`} data-testid="agent-also-deletes" data-id={c.id}>
              {agent} will also delete {t.what}: “<SessionName session={t} title={t.title} file={false} />”
              goes with {name}, in its trash entry.
              {left === t && (
                <strong data-testid="agent-untick-refused">
                  {" "}
                  It is not ticked, so {name} will not be moved: tick both, or neither.
                </strong>
              )}
            </li>
          ));
        })}
      </ul>
    </div>
  );
}

/**
 * The ticked candidates that will not move after all: each whose agent's own delete takes a
 * session left unticked (the server refuses it), and so on up. Not counted, not sent.
 */
export function notGoing(candidates: readonly Candidate[], ticked: ReadonlySet<string>): Set<string> {
  const stays = new Set<string>();
  const takers = candidates.filter((c) => c.alsoDeletes?.length);
  for (let changed = true; changed;) {
    changed = false;
    for (const c of takers)
      if (
        ticked.has(c.id) &&
        !stays.has(c.id) &&
        (c.alsoDeletes ?? []).some((t) => !ticked.has(t.id) || stays.has(t.id))
      ) {
        stays.add(c.id);
        changed = true;
      }
  }
  return stays;
}
