// Deletion and stores: where soft-deleted sessions go, and the stores to look at as rows (kind and
// root), each saying how many sessions of the last scan it holds. No rows: the default stores.
import { useMemo } from "preact/hooks";
import { DEFAULT_CONFIG } from "../../../../shared/config.js";
import {
  AGENT_LABELS,
  isFoundUnnamed,
  SESSION_DIR_KIND,
  STORE_KINDS,
} from "../../../../shared/store-kinds.js";
import { getIn, type PolicyForm, storeMatches } from "../../state/policy-form.js";
import { bind, CheckboxField, SelectField, TextField } from "./fields.js";
import { RowField, RowList } from "./rows.js";
import type { ScanFacts } from "./scan.js";

/** The agents whose stores are found without a row (a workspace store is only ever named). */
const DISCOVERED = STORE_KINDS.filter(isFoundUnnamed)
  .map((k) =>
    k === SESSION_DIR_KIND ? `${AGENT_LABELS[k]}'s (or the folder above)` : `${AGENT_LABELS[k]}'s`,
  )
  .join(", ");

interface StoreRow {
  kind: string;
  root: string;
}

export function StoresSection({ form, scan, home }: { form: PolicyForm; scan: ScanFacts; home: string }) {
  const value = getIn(form.draft.value, "stores");
  const stores: unknown[] = Array.isArray(value) ? value : [];
  const key = JSON.stringify(stores);
  const counts = useMemo(() => storeMatches(stores, scan.rows, home), [key, scan.rows, home]);
  return (
    <fieldset>
      <legend>Deletion and stores</legend>
      <SelectField
        bound={bind(form, "deletion.target")}
        fallback={DEFAULT_CONFIG.deletion.target}
        options={["trash", "quarantine"]}
        label="Soft-deleted sessions go to"
        help="trash: the desktop's trash · quarantine: our own folder"
      />
      <TextField
        bound={bind(form, "deletion.quarantineDir")}
        label="Quarantine folder"
        help="absolute or ~/…; empty = <agentDir>/session-trash"
      />
      <CheckboxField
        bound={bind(form, "enabled")}
        fallback={DEFAULT_CONFIG.enabled}
        label="Extension enabled"
        help="off: the pi extension stays silent"
      />
      <TextField
        bound={bind(form, "sessionDir")}
        label="pi session folder"
        help="empty = pi's own locations"
      />
      <h3 class="rows-title">Stores</h3>
      <p class="hint" data-testid="stores-help">
        The stores to look at. No rows: each agent's own store where it exists — {DISCOVERED}. A store that is
        added shows its sessions after the next scan.
      </p>
      <RowList<Partial<StoreRow>>
        form={form}
        path="stores"
        noun="store"
        blank={() => ({ kind: SESSION_DIR_KIND, root: "" })}
        focusKey="kind"
        empty="No stores listed: the default stores."
      >
        {({ index, field }) => {
          const kind = field("kind");
          const root = field("root");
          const n = counts[index] ?? 0;
          return (
            <>
              <RowField label="Kind" bound={kind}>
                <select
                  id={kind.id}
                  data-testid={kind.id}
                  aria-invalid={kind.problems.length > 0}
                  value={typeof kind.value === "string" ? kind.value : ""}
                  onChange={(e) => kind.onChange(e.currentTarget.value)}
                >
                  {STORE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              </RowField>
              <RowField
                label="Root folder"
                bound={root}
                help={
                  scan.complete
                    ? `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"} in the last scan`
                    : "counting once the sessions have loaded…"
                }
              >
                <input
                  type="text"
                  autoComplete="off"
                  id={root.id}
                  data-testid={root.id}
                  aria-invalid={root.problems.length > 0}
                  aria-describedby={`${root.id}-help${root.problems.length ? ` ${root.id}-problem` : ""}`}
                  placeholder="~/.pi/agent/sessions"
                  value={typeof root.value === "string" ? root.value : ""}
                  onInput={(e) => root.onChange(e.currentTarget.value)}
                />
              </RowField>
            </>
          );
        }}
      </RowList>
    </fieldset>
  );
}
