// Every warning of a plan ("quota cannot be met: …") and its refusal, if any, as the wizard and the
// Policy page's preview show them: a plan that cannot reach its quota says so before anything moves.
import type { Plan } from "../../../shared/plan.js";

export function PlanWarnings({ plan }: { plan: Pick<Plan, "warnings" | "refusal"> }) {
  if (plan.warnings.length === 0 && !plan.refusal) return null;
  return (
    <div class="banner warn" role="status" data-testid="plan-warnings">
      <ul>
        {plan.refusal && <li data-testid="plan-refusal">{plan.refusal.message}</li>}
        {plan.warnings.map((w) => (
          <li key={`${w.code}:${w.message}`} data-testid="plan-warning" data-code={w.code}>
            {w.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
