// The policy's verdict on one session, in a few words: "would clean · older than 30 days",
// "kept · among the 30 most recent". The sessions table, the drawer and the treemap show it, so
// what a policy clean would take is visible before the wizard opens. One reason per rule (the
// plan's per-session `detail` says the numbers of each session).
import type { Policy } from "./config.js";
import { formatBytes } from "./format.js";
import { CANDIDATE_RULES, type CandidateRule, KEEP_REASONS, type KeepReason, type Plan } from "./plan.js";

/** A rule that chose the session, or the strongest reason it is kept ("within-policy": no rule). */
export type VerdictCode = Exclude<CandidateRule, "selected"> | KeepReason;

/** The rules a policy cleans by: every candidate rule but the hand pick. */
const CLEAN_CODES: ReadonlySet<string> = new Set<VerdictCode>(
  CANDIDATE_RULES.filter((rule): rule is Exclude<CandidateRule, "selected"> => rule !== "selected"),
);

/** True when the verdict is "the policy would clean it". */
export function wouldClean(code: string | undefined): boolean {
  return code !== undefined && CLEAN_CODES.has(code);
}

/** Each session's verdict in a plan made by the rules (not a hand selection). */
export function verdictsOf(plan: Pick<Plan, "candidates" | "kept">): Map<string, VerdictCode> {
  const verdicts = new Map<string, VerdictCode>();
  for (const c of plan.candidates) if (c.rule !== "selected") verdicts.set(c.id, c.rule);
  for (const k of plan.kept) verdicts.set(k.id, k.reason);
  return verdicts;
}

/** Why, in a few words, for this policy: "older than 30 days". */
export function verdictReason(code: VerdictCode, policy: Policy): string {
  const { retention, quota } = policy;
  switch (code) {
    case "maxAgeDays":
      return `older than ${retention.maxAgeDays ?? "?"} days`;
    case "neverReopened":
      return "never reopened";
    case "namespaceQuota":
      return "over its namespace's quota";
    case "agentQuota":
      return "over its agent's quota";
    case "maxTotalSizeBytes":
      return `over the size quota (${formatBytes(quota.maxTotalSizeBytes ?? 0)})`;
    case "maxSessionCount":
      return `over the count quota (${(quota.maxSessionCount ?? 0).toLocaleString("en-US")})`;
    case "active":
      return "in use";
    case "pinned":
      return "pinned";
    case "protected":
      return "protected";
    case "fork-parent":
      return "a fork reads its history";
    case "recent":
      return `among the ${retention.minKeepRecentCount} most recent`;
    case "last-in-namespace":
      return retention.keepLastPerNamespace === 1
        ? "the latest of its namespace"
        : `among the ${retention.keepLastPerNamespace} latest of its namespace`;
    case "cannot-move":
      return "cannot be moved now";
    case "within-policy":
      return "no rule applies";
  }
}

/** The verdict as the table's badge says it: "would clean · older than 30 days". */
export function verdictLabel(code: VerdictCode, policy: Policy): string {
  return `${wouldClean(code) ? "would clean" : "kept"} · ${verdictReason(code, policy)}`;
}

/** Every verdict's label for a policy: sent once with the table, which sends only codes per row. */
export function verdictLabels(policy: Policy): Record<VerdictCode, string> {
  const codes: VerdictCode[] = [...(CLEAN_CODES as ReadonlySet<VerdictCode>), ...KEEP_REASONS];
  return Object.fromEntries(codes.map((code) => [code, verdictLabel(code, policy)])) as Record<
    VerdictCode,
    string
  >;
}
