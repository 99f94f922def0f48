// Quota: the mode, the store's limits, the per-namespace quotas as rows — each row saying how many
// namespaces of the last scan its pattern matches (the first matching row wins, as in the engine) —
// and the per-agent quotas.
import { useMemo } from "preact/hooks";
import { DEFAULT_CONFIG, type NamespaceQuota, QUOTA_MODES } from "../../../../shared/config.js";
import { getIn, namespaceMatches, type PolicyForm } from "../../state/policy-form.js";
import { AgentQuotas } from "./AgentQuotas.js";
import { bind, BytesInput, FieldShell, NumberField, NumberInput, SelectField } from "./fields.js";
import { RowField, RowList } from "./rows.js";
import { matchesText, type ScanFacts } from "./scan.js";

export function QuotaSection({ form, scan }: { form: PolicyForm; scan: ScanFacts }) {
  const quota = DEFAULT_CONFIG.quota;
  const size = bind(form, "quota.maxTotalSizeBytes");
  const rows = getIn(form.draft.value, "quota.namespaces");
  const patterns = Array.isArray(rows) ? rows.map((r) => (r as Partial<NamespaceQuota> | null)?.pattern) : [];
  const key = JSON.stringify(patterns);
  const matches = useMemo(() => namespaceMatches(patterns, scan.namespaces), [key, scan.namespaces]);
  return (
    <fieldset>
      <legend>Quota</legend>
      <SelectField
        bound={bind(form, "mode")}
        fallback={DEFAULT_CONFIG.mode}
        options={QUOTA_MODES}
        label="Mode"
        help="off: say nothing · warn-only: pi warns · hard-block: pi blocks input when critical"
      />
      <FieldShell
        id={size.id}
        label="Size limit"
        help="empty = no size limit"
        problems={size.problems}
        at={size.path}
      >
        <BytesInput bound={size} fallback={quota.maxTotalSizeBytes} label="Size limit" />
      </FieldShell>
      <NumberField
        bound={bind(form, "quota.maxSessionCount")}
        fallback={quota.maxSessionCount}
        empty={null}
        placeholder="no limit"
        label="Session limit"
        help="empty = no count limit"
      />
      <NumberField
        bound={bind(form, "quota.infoRatio")}
        fallback={quota.infoRatio}
        empty={undefined}
        label="Info from"
        help="share of a limit (0–1)"
      />
      <NumberField
        bound={bind(form, "quota.warnRatio")}
        fallback={quota.warnRatio}
        empty={undefined}
        label="Warn from"
        help="share of a limit (0–1)"
      />
      <h3 class="rows-title">Namespace quotas</h3>
      <p class="hint">
        Each namespace (a session's working folder) matching a pattern gets limits of its own; the first
        matching row wins. <code>*</code> matches any text, <code>/</code> included.
      </p>
      <RowList<Partial<NamespaceQuota>>
        form={form}
        path="quota.namespaces"
        noun="namespace quota"
        blank={() => ({ pattern: "", maxTotalSizeBytes: null, maxSessionCount: null })}
        focusKey="pattern"
        empty="No namespace quotas."
      >
        {({ index, field }) => {
          const pattern = field("pattern");
          const bytes = field("maxTotalSizeBytes");
          const count = field("maxSessionCount");
          const match = matches[index];
          const shadowed = match ? match.matched - match.governed : 0;
          return (
            <>
              <RowField
                label="Namespace pattern"
                bound={pattern}
                help={
                  matchesText(match?.matched, "namespace", scan) +
                  (scan.complete && shadowed > 0 ? ` (${shadowed} taken by an earlier row)` : "")
                }
              >
                <input
                  type="text"
                  autoComplete="off"
                  id={pattern.id}
                  data-testid={pattern.id}
                  aria-invalid={pattern.problems.length > 0}
                  aria-describedby={`${pattern.id}-help${pattern.problems.length ? ` ${pattern.id}-problem` : ""}`}
                  placeholder="/work/*"
                  value={typeof pattern.value === "string" ? pattern.value : ""}
                  onInput={(e) => pattern.onChange(e.currentTarget.value)}
                />
              </RowField>
              <RowField label="Size limit" bound={bytes}>
                <BytesInput bound={bytes} hasHelp={false} label={`Namespace quota ${index + 1} size limit`} />
              </RowField>
              <RowField label="Session limit" bound={count}>
                <NumberInput bound={count} empty={null} placeholder="no limit" hasHelp={false} />
              </RowField>
            </>
          );
        }}
      </RowList>
      <AgentQuotas form={form} scan={scan} />
    </fieldset>
  );
}
