// The agents' own checks of their stores after a delete or a restore (Codex's `codex doctor`): one
// line each, quiet when all is well, an alert when it is not — the change itself stands either way.
import type { AgentCheck } from "../../../shared/trash.js";
import { AGENT_LABELS } from "../../../shared/session-record.js";

export function AgentChecks({ checks }: { checks: readonly AgentCheck[] | undefined }) {
  if (!checks?.length) return null;
  const bad = checks.filter((c) => c.status === "warning" || c.status === "fail");
  return (
    <div
      class={`banner ${bad.length > 0 ? "error" : "info"}`}
      role={bad.length > 0 ? "alert" : "status"}
      data-testid="agent-checks"
    >
      {bad.length > 0 && (
        <p>
          <strong>
            {AGENT_LABELS[bad[0]!.agent]}'s own check of its store did not come out clean. What was moved
            stays moved (the trash holds it); look at the store with the agent's own tools.
          </strong>
        </p>
      )}
      <ul>
        {checks.map((c) => (
          <li key={`${c.agent} ${c.storeRoot}`} data-testid="agent-check" data-status={c.status}>
            {c.message} <span class="hint">({c.storeRoot})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
