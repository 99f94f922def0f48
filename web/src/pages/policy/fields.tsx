// The policy form's inputs: each one a label, an input, its help and — beside it — its problems by
// the server's schema. A number field keeps the text as typed; what does not parse goes into the
// draft as text so the schema refuses it there (Save disabled), never silently dropped.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ConfigProblem } from "../../../../shared/config.js";
import {
  BYTE_UNITS,
  type ByteUnit,
  bytesFromText,
  getIn,
  inFormWords,
  numberFromText,
  type PolicyForm,
  problemsAt,
  sameJson,
  textOfBytes,
  textOfNumber,
  unitFor,
} from "../../state/policy-form.js";

/** A field's id (and test id) from its config path: `quota.namespaces[0].pattern` → `field-quota-namespaces-0-pattern`. */
export const fieldId = (path: string) => `field-${path.replace(/[.[\]]+/g, "-").replace(/-$/, "")}`;

export interface Bound {
  id: string;
  /** Its config path: its own problems show without it, those inside it (a row's) with theirs. */
  path?: string;
  value: unknown;
  problems: ConfigProblem[];
  onChange: (value: unknown) => void;
}

/** A field bound to a config path of the form's draft. */
export function bind(form: PolicyForm, path: string): Bound {
  return {
    id: fieldId(path),
    path,
    value: getIn(form.draft.value, path),
    problems: problemsAt(form.shownProblems.value, path),
    onChange: (value) => form.edit(path, value),
  };
}

export function FieldShell({
  id,
  label,
  help,
  problems,
  at,
  children,
}: {
  id: string;
  label: string;
  help?: ComponentChildren;
  problems: ConfigProblem[];
  at?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${problems.length > 0 ? " invalid" : ""}`}>
      <label for={id}>{label}</label>
      <div class="field-input">{children}</div>
      {help !== undefined && (
        <small id={`${id}-help`} class="hint" data-testid={`${id}-help`}>
          {help}
        </small>
      )}
      <Problems id={id} problems={problems} at={at} />
    </div>
  );
}

export function Problems({ id, problems, at }: { id: string; problems: ConfigProblem[]; at?: string }) {
  if (problems.length === 0) return null;
  return (
    <small id={`${id}-problem`} class="problem" role="alert" data-testid={`${id}-problem`}>
      {problems
        .map((p) => (p.path === at ? inFormWords(p.message) : `${p.path}: ${inFormWords(p.message)}`))
        .join("; ")}
    </small>
  );
}

/** The attributes every input shares: its id, what describes it, whether it is invalid. */
export function inputProps(bound: Pick<Bound, "id" | "problems">, hasHelp = true) {
  const invalid = bound.problems.length > 0;
  const describedBy = [hasHelp ? `${bound.id}-help` : "", invalid ? `${bound.id}-problem` : ""]
    .filter(Boolean)
    .join(" ");
  return {
    id: bound.id,
    "data-testid": bound.id,
    "aria-invalid": invalid,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
  };
}

/**
 * The text an input shows: what was typed, until the draft changes under it (Discard, a unit
 * change): then the draft's value again.
 */
function useText(value: unknown, format: (v: unknown) => string, parse: (text: string) => unknown) {
  const [text, setText] = useState(() => format(value));
  useEffect(() => {
    if (!sameJson(parse(text), value)) setText(format(value));
    // Only a change of the value from outside resets the text; typing changes both together.
  }, [value]);
  return [text, setText] as const;
}

export function CheckboxField({
  bound,
  fallback,
  label,
  help,
}: {
  bound: Bound;
  fallback: boolean;
  label: string;
  help: string;
}) {
  const shown = bound.value === undefined ? fallback : bound.value;
  return (
    <FieldShell id={bound.id} label={label} help={help} problems={bound.problems} at={bound.path}>
      <input
        type="checkbox"
        {...inputProps(bound)}
        checked={shown === true}
        onChange={(e) => bound.onChange(e.currentTarget.checked)}
      />
    </FieldShell>
  );
}

export function SelectField({
  bound,
  fallback,
  options,
  label,
  help,
}: {
  bound: Bound;
  fallback: string;
  options: readonly string[];
  label: string;
  help: string;
}) {
  const shown = bound.value === undefined ? fallback : String(bound.value);
  return (
    <FieldShell id={bound.id} label={label} help={help} problems={bound.problems} at={bound.path}>
      <select {...inputProps(bound)} value={shown} onChange={(e) => bound.onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/**
 * A number as text. `empty` is what an empty field means: undefined (back to the default) or null
 * (the setting's "off" / "no limit").
 */
export function NumberInput({
  bound,
  fallback,
  empty,
  placeholder,
  hasHelp = true,
}: {
  bound: Bound;
  fallback?: unknown;
  empty: null | undefined;
  placeholder?: string;
  hasHelp?: boolean;
}) {
  const shown = bound.value === undefined ? fallback : bound.value;
  const parse = (text: string) => numberFromText(text, empty) ?? fallback;
  const [text, setText] = useText(shown, textOfNumber, parse);
  return (
    <input
      type="text"
      inputMode="decimal"
      autoComplete="off"
      {...inputProps(bound, hasHelp)}
      // An empty field means the default: the placeholder says which.
      placeholder={placeholder ?? (typeof fallback === "number" ? String(fallback) : undefined)}
      value={text}
      onInput={(e) => {
        setText(e.currentTarget.value);
        bound.onChange(numberFromText(e.currentTarget.value, empty));
      }}
    />
  );
}

export function NumberField({
  bound,
  label,
  help,
  ...rest
}: {
  bound: Bound;
  label: string;
  help: ComponentChildren;
  fallback?: unknown;
  empty: null | undefined;
  placeholder?: string;
}) {
  return (
    <FieldShell id={bound.id} label={label} help={help} problems={bound.problems} at={bound.path}>
      <NumberInput bound={bound} {...rest} />
    </FieldShell>
  );
}

/** An amount of bytes in a unit of your choice (MiB, GiB, TiB); empty is null, "no limit". */
export function BytesInput({
  bound,
  fallback,
  hasHelp = true,
  label,
}: {
  bound: Bound;
  fallback?: unknown;
  hasHelp?: boolean;
  /** The amount's name, for the unit's label ("Size limit" → "Size limit unit"). */
  label: string;
}) {
  const shown = bound.value === undefined ? fallback : bound.value;
  const [unit, setUnit] = useState<ByteUnit>(() => unitFor(shown));
  const [text, setText] = useText(
    shown,
    (v) => textOfBytes(v, unit),
    (t) => bytesFromText(t, unit),
  );
  return (
    <span class="amount">
      <input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        {...inputProps(bound, hasHelp)}
        placeholder="no limit"
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          bound.onChange(bytesFromText(e.currentTarget.value, unit));
        }}
      />
      <select
        aria-label={`${label} unit`}
        data-testid={`${bound.id}-unit`}
        value={unit}
        onChange={(e) => {
          const next = e.currentTarget.value as ByteUnit;
          setUnit(next);
          // The number stays as typed; it now counts in the new unit.
          bound.onChange(bytesFromText(text, next));
        }}
      >
        {Object.keys(BYTE_UNITS).map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </span>
  );
}

/** A text setting where empty means the default (the key leaves the file). */
export function TextField({ bound, label, help }: { bound: Bound; label: string; help: string }) {
  return (
    <FieldShell id={bound.id} label={label} help={help} problems={bound.problems} at={bound.path}>
      <input
        type="text"
        autoComplete="off"
        {...inputProps(bound)}
        value={typeof bound.value === "string" ? bound.value : ""}
        onInput={(e) =>
          bound.onChange(e.currentTarget.value.trim() === "" ? undefined : e.currentTarget.value)
        }
      />
    </FieldShell>
  );
}
