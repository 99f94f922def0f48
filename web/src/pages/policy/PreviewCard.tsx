// The live preview: what the draft would clean — in total, by rule — the quota level after, and
// every warning of the plan ("quota cannot be met"). A draft with problems is not evaluated.
import type { Plan } from "../../../../shared/plan.js";
import { Bytes } from "../../components/Bytes.js";
import { PlanWarnings } from "../../components/PlanWarnings.js";
import { previewByRule, type RuleShare } from "../../state/policy-form.js";

export function PreviewCard({
  plan,
  problemCount,
  error,
}: {
  plan: Plan | undefined;
  problemCount: number;
  error: string | undefined;
}) {
  return (
    <section class="preview card" aria-labelledby="preview-title" data-testid="policy-preview">
      <h3 id="preview-title">What this policy would clean now</h3>
      <div role="status" aria-live="polite">
        {problemCount > 0 ? (
          <span class="level-critical">
            The draft has {problemCount} problem{problemCount === 1 ? "" : "s"}; fix them to see what it would
            do.
          </span>
        ) : error ? (
          <span class="level-critical">No preview: {error}</span>
        ) : plan ? (
          <span>
            <strong data-testid="preview-count">{plan.candidates.length}</strong> session
            {plan.candidates.length === 1 ? "" : "s"} (
            <strong data-testid="preview-bytes" data-bytes={plan.bytesToFree}>
              <Bytes value={plan.bytesToFree} />
            </strong>
            ); quota level after:{" "}
            <span class={`level-${plan.quotaAfter.level}`}>{plan.quotaAfter.level}</span>
            {plan.refusal && <> — refused: {plan.refusal.message}</>}
          </span>
        ) : (
          "Evaluating…"
        )}
      </div>
      {problemCount === 0 && plan && <ByRule plan={plan} />}
      {problemCount === 0 && plan && <PlanWarnings plan={{ warnings: plan.warnings }} />}
    </section>
  );
}

/** The rules that take something, as a table; those that take nothing, on one line. */
function ByRule({ plan }: { plan: Plan }) {
  const shares = previewByRule(plan);
  const taking = shares.filter((share) => share.sessions > 0);
  const idle = shares.filter((share) => share.sessions === 0);
  const attributes = (share: RuleShare) => ({
    "data-testid": `preview-rule-${share.rule}`,
    "data-sessions": share.sessions,
    "data-bytes": share.bytes,
  });
  return (
    <>
      {taking.length > 0 && (
        <table class="data by-rule" data-testid="preview-by-rule" aria-label="What each rule would clean">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col" class="num">
                Sessions
              </th>
              <th scope="col" class="num">
                Size
              </th>
            </tr>
          </thead>
          <tbody>
            {taking.map((share) => (
              <tr key={share.rule} {...attributes(share)}>
                <th scope="row">{share.label}</th>
                <td class="num">{share.sessions.toLocaleString("en-US")}</td>
                <td class="num">
                  <Bytes value={share.bytes} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {idle.length > 0 && (
        <p class="hint" data-testid="preview-rules-idle">
          {taking.length === 0 ? "No rule takes anything: " : "Nothing from "}
          {idle.map((share, i) => (
            <span key={share.rule} {...attributes(share)}>
              {i > 0 && ", "}
              {share.label}
            </span>
          ))}
          .
        </p>
      )}
    </>
  );
}
