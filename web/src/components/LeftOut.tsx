// What a plan leaves out because it cannot be moved now (a part's rights, an agent's missing tool,
// an agent's own delete that would take a session that is not going): each reason once, with its
// sessions under it (and what holds each back, where that is its own), so that the count shown
// beside it is what will move.
import type { Plan } from "../../../shared/plan.js";
import { fileName } from "../../../shared/session-title.js";

/** Sessions listed per reason (the rest are counted). */
const LISTED = 200;

const sessions = (n: number) => `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"}`;

export function LeftOut({ groups }: { groups: Plan["leftOut"] }) {
  if (!groups?.length) return null;
  const count = groups.reduce((t, g) => t + g.sessions.length, 0);
  return (
    <div class="banner info" role="status" data-testid="left-out">
      <p>
        {sessions(count)} chosen cannot be moved now, and {count === 1 ? "is" : "are"} left out of this
        cleanup:
      </p>
      <ul>
        {groups.map((g) => (
          <li key={g.reason} data-testid="left-out-group">
            <details>
              <summary>
                <span data-testid="left-out-count">{sessions(g.sessions.length)}</span>:{" "}
                <span data-testid="left-out-reason">{g.reason}</span>
              </summary>
              <ul>
                {g.sessions.slice(0, LISTED).map((s) => (
                  <li key={s.id} title={s.path} data-testid="left-out-session" data-id={s.id}>
                    {s.title !== undefined && <>{s.title} · </>}
                    <code>{fileName(s.path)}</code>
                    {s.detail !== undefined && <span data-testid="left-out-detail"> — {s.detail}</span>}
                  </li>
                ))}
                {g.sessions.length > LISTED && (
                  <li class="hint">…and {(g.sessions.length - LISTED).toLocaleString("en-US")} more</li>
                )}
              </ul>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
