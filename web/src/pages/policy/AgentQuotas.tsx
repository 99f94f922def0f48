// Per-agent quotas (`quota.agents`): a size and a count limit for each agent's sessions together,
// for the agents in the last scan and any the file already limits. An empty field is no limit and
// leaves the file (the schema's default), so an agent with neither limit has no entry at all.
import { useMemo } from "preact/hooks";
import { AGENT_LABELS, STORE_KINDS, type StoreKind } from "../../../../shared/store-kinds.js";
import { getIn, type PolicyForm } from "../../state/policy-form.js";
import { type Bound, bind, BytesInput, NumberInput } from "./fields.js";
import { RowField } from "./rows.js";
import type { ScanFacts } from "./scan.js";

export function AgentQuotas({ form, scan }: { form: PolicyForm; scan: ScanFacts }) {
  const counts = useMemo(() => {
    const n = new Map<StoreKind, number>();
    for (const row of scan.rows) n.set(row.store, (n.get(row.store) ?? 0) + 1);
    return n;
  }, [scan.rows]);
  const limited = getIn(form.draft.value, "quota.agents");
  const inFile = typeof limited === "object" && limited !== null ? Object.keys(limited) : [];
  const kinds = STORE_KINDS.filter((kind) => counts.has(kind) || inFile.includes(kind));
  const noneAsDefault = (bound: Bound): Bound => ({
    ...bound,
    onChange: (value) => bound.onChange(value === null ? undefined : value),
  });
  return (
    <>
      <h3 class="rows-title">Agent quotas</h3>
      <p class="hint">Limits for each agent's sessions together, beside the store's; empty = no limit.</p>
      {kinds.length === 0 && <p class="hint">No agent's sessions in the last scan yet.</p>}
      {kinds.map((kind) => {
        const size = noneAsDefault(bind(form, `quota.agents.${kind}.maxTotalSizeBytes`));
        const count = noneAsDefault(bind(form, `quota.agents.${kind}.maxSessionCount`));
        const n = counts.get(kind) ?? 0;
        return (
          <div
            key={kind}
            class="policy-row"
            role="group"
            aria-label={`${AGENT_LABELS[kind]} quota`}
            data-testid={`agent-quota-${kind}`}
          >
            <RowField
              label={`${AGENT_LABELS[kind]}: size limit`}
              bound={size}
              help={
                scan.complete
                  ? `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"} in the last scan`
                  : "counting once the sessions have loaded…"
              }
            >
              <BytesInput bound={size} label={`${AGENT_LABELS[kind]} size limit`} />
            </RowField>
            <RowField label="Session limit" bound={count}>
              <NumberInput bound={count} empty={null} placeholder="no limit" hasHelp={false} />
            </RowField>
          </div>
        );
      })}
    </>
  );
}
