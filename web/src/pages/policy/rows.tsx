// A list setting edited as rows (namespace quotas, protected patterns, stores): add, edit, remove,
// each row with its own problems and what it matches in the last scan. Removing the last row puts
// the setting back to its default (the key leaves the file).
import type { ComponentChildren } from "preact";
import { useRef } from "preact/hooks";
import type { ConfigProblem } from "../../../../shared/config.js";
import { getIn, type PolicyForm, problemsAt } from "../../state/policy-form.js";
import { type Bound, fieldId, Problems } from "./fields.js";

/**
 * Stable keys for rows that have none, so a row's inputs (the text typed, the unit chosen) stay
 * with it when a row above is removed.
 */
function useRowKeys(length: number) {
  const keys = useRef<number[]>([]);
  const next = useRef(0);
  while (keys.current.length < length) keys.current.push(next.current++);
  if (keys.current.length > length) keys.current.length = length;
  return {
    keys: keys.current,
    remove: (i: number) => keys.current.splice(i, 1),
  };
}

export interface RowApi<T> {
  index: number;
  row: T;
  /** A field of this row, bound to its path in the draft. */
  field: (key: string) => Bound;
  /** The bound row itself, for rows that are a plain value (a protected pattern). */
  self: Bound;
}

export function RowList<T>({
  form,
  path,
  noun,
  blank,
  empty,
  focusKey,
  children,
}: {
  form: PolicyForm;
  path: string;
  /** "namespace quota": names the buttons and each row's group. */
  noun: string;
  blank: () => T;
  /** What no rows means. */
  empty: string;
  /** The field a new row's focus goes to (none: the row is one input). */
  focusKey?: string;
  children: (row: RowApi<T>) => ComponentChildren;
}) {
  const value = getIn(form.draft.value, path);
  const rows: T[] = Array.isArray(value) ? (value as T[]) : [];
  const { keys, remove } = useRowKeys(rows.length);
  const problems = form.shownProblems.value;
  const set = (next: T[]) => form.edit(path, next.length ? next : undefined);
  const listId = fieldId(path);
  // Keyboard users land in the row they added, and on "Add" after removing one (the button they
  // pressed is gone). After the render, once the element exists.
  const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);
  // A value that is not a list at all (a hand-written file) is named, not hidden.
  const notList = value !== undefined && !Array.isArray(value);
  return (
    <div class="rows" data-testid={`${listId}-rows`}>
      {notList && <Problems id={listId} problems={[{ path, message: "must be a list" }]} />}
      {rows.length === 0 && <p class="hint">{empty}</p>}
      {rows.map((row, index) => {
        const rowPath = `${path}[${index}]`;
        const field = (key: string): Bound => ({
          id: fieldId(`${rowPath}.${key}`),
          path: `${rowPath}.${key}`,
          value: (row as Record<string, unknown> | null)?.[key],
          problems: problemsAt(problems, `${rowPath}.${key}`),
          onChange: (v) => set(rows.map((r, i) => (i === index ? { ...(r as object), [key]: v } : r)) as T[]),
        });
        const self: Bound = {
          id: fieldId(rowPath),
          path: rowPath,
          value: row,
          problems: problemsAt(problems, rowPath),
          onChange: (v) => set(rows.map((r, i) => (i === index ? (v as T) : r))),
        };
        // Problems of the row as a whole (an unknown key), not of one of its fields.
        const own: ConfigProblem[] =
          typeof row === "object" && row !== null
            ? self.problems.filter((p) => !Object.keys(row).some((k) => p.path.startsWith(`${rowPath}.${k}`)))
            : [];
        return (
          <div
            key={keys[index]}
            class="policy-row"
            role="group"
            aria-label={`${noun} ${index + 1}`}
            data-testid={`${listId}-row`}
          >
            {children({ index, row, field, self })}
            <button
              type="button"
              class="remove-row"
              aria-label={`Remove ${noun} ${index + 1}`}
              data-testid={`${fieldId(rowPath)}-remove`}
              onClick={() => {
                remove(index);
                set(rows.filter((_, i) => i !== index));
                focusLater(`${listId}-add`);
              }}
            >
              Remove
            </button>
            <Problems id={fieldId(rowPath)} problems={own} />
          </div>
        );
      })}
      <button
        type="button"
        id={`${listId}-add`}
        data-testid={`${listId}-add`}
        onClick={() => {
          set([...rows, blank()]);
          const rowPath = `${path}[${rows.length}]`;
          focusLater(fieldId(focusKey ? `${rowPath}.${focusKey}` : rowPath));
        }}
      >
        Add {noun}
      </button>
    </div>
  );
}

/** A row's input with its label above it (rows are too narrow for the form's label column). */
export function RowField({
  label,
  bound,
  help,
  children,
}: {
  label: string;
  bound: Bound;
  help?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <div class={`row-field${bound.problems.length > 0 ? " invalid" : ""}`}>
      <label for={bound.id}>{label}</label>
      {children}
      {help !== undefined && (
        <small id={`${bound.id}-help`} class="hint" data-testid={`${bound.id}-help`}>
          {help}
        </small>
      )}
      <Problems id={bound.id} problems={bound.problems} at={bound.path} />
    </div>
  );
}
