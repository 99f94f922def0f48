// Protection and activity: protected patterns as rows, each saying how many sessions of the last
// scan it matches (by path, file name, namespace or name — the engine's own matcher).
import { useMemo } from "preact/hooks";
import { DEFAULT_CONFIG } from "../../../../shared/config.js";
import { getIn, type PolicyForm, protectedMatches } from "../../state/policy-form.js";
import { bind, NumberField } from "./fields.js";
import { RowField, RowList } from "./rows.js";
import { matchesText, type ScanFacts } from "./scan.js";

export function ProtectionSection({ form, scan }: { form: PolicyForm; scan: ScanFacts }) {
  const value = getIn(form.draft.value, "protection.protectedPatterns");
  const patterns: unknown[] = Array.isArray(value) ? value : [];
  const key = JSON.stringify(patterns);
  // Counts per pattern for this scan: a keystroke in one row recounts that row only.
  const cache = useMemo(() => new Map<string, number>(), [scan.rows]);
  const matches = useMemo(() => protectedMatches(patterns, scan.rows, cache), [key, scan.rows, cache]);
  return (
    <fieldset>
      <legend>Protection and activity</legend>
      <h3 class="rows-title">Protected patterns</h3>
      <p class="hint">
        A session whose path, file name, namespace or name matches a pattern is never cleaned. <code>*</code>{" "}
        matches any text, <code>?</code> one character.
      </p>
      <RowList<string>
        form={form}
        path="protection.protectedPatterns"
        noun="protected pattern"
        blank={() => ""}
        empty="No protected patterns."
      >
        {({ index, self }) => (
          <RowField label="Pattern" bound={self} help={matchesText(matches[index], "session", scan)}>
            <input
              type="text"
              autoComplete="off"
              id={self.id}
              data-testid={self.id}
              aria-invalid={self.problems.length > 0}
              aria-describedby={`${self.id}-help${self.problems.length ? ` ${self.id}-problem` : ""}`}
              placeholder="*incident*"
              value={typeof self.value === "string" ? self.value : ""}
              onInput={(e) => self.onChange(e.currentTarget.value)}
            />
          </RowField>
        )}
      </RowList>
      <NumberField
        bound={bind(form, "activity.graceMinutes")}
        fallback={DEFAULT_CONFIG.activity.graceMinutes}
        empty={undefined}
        label="Active for (minutes)"
        help="a session written this recently counts as in use"
      />
    </fieldset>
  );
}
