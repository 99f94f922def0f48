// Retention: what the rules keep and take, and the never-reopened rule as fields of its own (off
// unless turned on; turning it on starts from a week, one user message, an hour).
import { DEFAULT_CONFIG, EVICTION_ORDERS } from "../../../../shared/config.js";
import { getIn, type PolicyForm } from "../../state/policy-form.js";
import { bind, CheckboxField, fieldId, NumberField, SelectField } from "./fields.js";

/** The rule as it is switched on: sessions a week old, with at most one message, used within an hour. */
const NEVER_REOPENED_START = { olderThanDays: 7, maxUserMessages: 1, activeMinutes: 60 };

export function RetentionSection({ form }: { form: PolicyForm }) {
  const retention = DEFAULT_CONFIG.retention;
  const rule = getIn(form.draft.value, "retention.neverReopened");
  const ruleOn = rule !== undefined && rule !== null;
  const toggleId = fieldId("retention.neverReopened");
  return (
    <fieldset>
      <legend>Retention</legend>
      <NumberField
        bound={bind(form, "retention.maxAgeDays")}
        fallback={retention.maxAgeDays}
        empty={null}
        placeholder="off"
        label="Max age (days)"
        help="sessions not used for longer are candidates; empty = off"
      />
      <NumberField
        bound={bind(form, "retention.minKeepRecentCount")}
        fallback={retention.minKeepRecentCount}
        empty={undefined}
        label="Always keep the most recent"
        help="sessions"
      />
      <NumberField
        bound={bind(form, "retention.keepLastPerNamespace")}
        fallback={retention.keepLastPerNamespace}
        empty={undefined}
        label="Keep last per namespace"
        help="sessions in every namespace"
      />
      <SelectField
        bound={bind(form, "retention.eviction")}
        fallback={retention.eviction}
        options={EVICTION_ORDERS}
        label="Quotas remove first"
        help="which sessions a size or count quota takes first"
      />
      <CheckboxField
        bound={{
          ...bind(form, "retention.neverReopened"),
          id: toggleId,
          value: ruleOn,
          // Off is the default: the key leaves the file rather than being written as null.
          onChange: (on) => form.edit("retention.neverReopened", on ? NEVER_REOPENED_START : undefined),
          // The rule's own fields show their problems; a wrong type of the whole shows here.
          problems: typeof rule === "object" ? [] : bind(form, "retention.neverReopened").problems,
        }}
        fallback={false}
        label="Never-reopened rule"
        help="sessions created, used briefly and never opened again"
      />
      {ruleOn && (
        <div class="sub-fields" data-testid="never-reopened-fields">
          <NumberField
            bound={bind(form, "retention.neverReopened.olderThanDays")}
            empty={undefined}
            label="…created more than (days) ago"
            help="only sessions at least this old"
          />
          <NumberField
            bound={bind(form, "retention.neverReopened.maxUserMessages")}
            empty={undefined}
            label="…with at most (user messages)"
            help="messages you wrote in the session"
          />
          <NumberField
            bound={bind(form, "retention.neverReopened.activeMinutes")}
            fallback={60}
            empty={undefined}
            label="…last used within (minutes)"
            help="of being created: never reopened later"
          />
        </div>
      )}
      <CheckboxField
        bound={bind(form, "retention.allowEmptyStore")}
        fallback={retention.allowEmptyStore}
        label="Allow emptying a store"
        help="a plan may remove every session of a store"
      />
      <CheckboxField
        bound={bind(form, "retention.autoClean")}
        fallback={retention.autoClean}
        label="Auto-clean in pi"
        help="soft delete on session start, at most daily"
      />
      <NumberField
        bound={bind(form, "retention.autoCleanMaxDeletesPerRun")}
        fallback={retention.autoCleanMaxDeletesPerRun}
        empty={undefined}
        label="Auto-clean at most"
        help="sessions per run"
      />
      <CheckboxField
        bound={bind(form, "retention.dryRun")}
        fallback={retention.dryRun}
        label="Auto-clean only reports"
        help="dry run"
      />
    </fieldset>
  );
}
