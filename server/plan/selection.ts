// "Every session matching this filter", evaluated on the server's own index: the ids of the records
// the sessions table would show for the filter, with the same kept reasons the table shows (the
// shared filter function decides, so web and server cannot disagree). The plan made from these ids
// applies every exemption again; nothing the client counted is trusted.
import type { Config } from "../../shared/config.js";
import { type SessionFilter, sessionMatcher } from "../../shared/session-filter.js";
import { verdictsOf } from "../../shared/verdict.js";
import { exemptionsOf, type PlanInputs, planFor } from "./plan-inputs.js";

export function idsMatchingFilter(
  inputs: PlanInputs,
  config: Config,
  filter: SessionFilter,
  now: Date,
): Set<string> {
  const sessions = inputs.report.sessions;
  const kept = exemptionsOf(inputs, config, now);
  // The verdicts cost a plan: made only for the filter that asks for them.
  const verdicts =
    filter.status === "policy"
      ? verdictsOf(planFor({ ...inputs, config: { ok: true, path: "", source: "file", config } }, now))
      : undefined;
  const matches = sessionMatcher(filter);
  const ids = new Set<string>();
  for (const s of sessions)
    if (
      matches({
        path: s.path,
        name: s.name,
        lastPrompt: s.lastPrompt,
        firstMessage: s.firstMessage,
        archived: s.archivedAt !== undefined,
        namespace: s.namespace,
        store: s.store.kind,
        kept: kept.get(s.id)?.reason,
        verdict: verdicts?.get(s.id),
        warnings: s.warnings.length,
      })
    )
      ids.add(s.id);
  return ids;
}
