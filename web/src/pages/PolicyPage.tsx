// Policy: a form for every field of the config file. The draft starts from the file's own JSON, so
// saving writes only what the file had plus what was changed — never every default. As you edit,
// the server evaluates the draft without saving it: its problems show beside their fields, and a
// live dry-run says how many sessions and bytes the policy would select and the quota level after.
import { useEffect, useRef, useState } from "preact/hooks";
import type { PolicyResponse } from "../../../shared/api.js";
import { type Config, DEFAULT_CONFIG, EVICTION_ORDERS, QUOTA_MODES } from "../../../shared/config.js";
import type { ConfigProblem } from "../../../shared/config.js";
import type { Plan } from "../../../shared/plan.js";
import { ApiError, type ApiClient } from "../api/client.js";
import { Bytes } from "../components/Bytes.js";

type Draft = Record<string, unknown>;
const GIB = 1024 ** 3;

type Kind =
  | { type: "bool" }
  | { type: "count" }
  | { type: "number"; step?: number }
  | { type: "days-or-off" }
  | { type: "limit-bytes" }
  | { type: "limit-count" }
  | { type: "select"; options: readonly string[] }
  | { type: "lines" }
  | { type: "text-or-default" }
  | { type: "json" };

interface Field {
  path: string;
  label: string;
  help: string;
  kind: Kind;
}

const SECTIONS: Array<{ title: string; fields: Field[] }> = [
  {
    title: "Quota",
    fields: [
      {
        path: "mode",
        label: "Mode",
        help: "off: say nothing · warn-only: pi warns · hard-block: pi blocks input when critical",
        kind: { type: "select", options: QUOTA_MODES },
      },
      {
        path: "quota.maxTotalSizeBytes",
        label: "Size limit (GiB)",
        help: "empty = no size limit",
        kind: { type: "limit-bytes" },
      },
      {
        path: "quota.maxSessionCount",
        label: "Session limit",
        help: "empty = no count limit",
        kind: { type: "limit-count" },
      },
      {
        path: "quota.infoRatio",
        label: "Info from",
        help: "share of a limit (0–1)",
        kind: { type: "number", step: 0.05 },
      },
      {
        path: "quota.warnRatio",
        label: "Warn from",
        help: "share of a limit (0–1)",
        kind: { type: "number", step: 0.05 },
      },
      {
        path: "quota.namespaces",
        label: "Namespace quotas",
        help: 'JSON list: [{"pattern": "/work/*", "maxTotalSizeBytes": 1073741824, "maxSessionCount": null}]',
        kind: { type: "json" },
      },
    ],
  },
  {
    title: "Retention",
    fields: [
      {
        path: "retention.maxAgeDays",
        label: "Max age (days)",
        help: "sessions not used for longer are candidates; empty = off",
        kind: { type: "days-or-off" },
      },
      {
        path: "retention.minKeepRecentCount",
        label: "Always keep the most recent",
        help: "sessions",
        kind: { type: "count" },
      },
      {
        path: "retention.keepLastPerNamespace",
        label: "Keep last per namespace",
        help: "sessions in every namespace",
        kind: { type: "count" },
      },
      {
        path: "retention.eviction",
        label: "Quotas remove first",
        help: "which sessions a size or count quota takes first",
        kind: { type: "select", options: EVICTION_ORDERS },
      },
      {
        path: "retention.neverReopened",
        label: "Never-reopened rule",
        help: 'JSON or null: {"olderThanDays": 7, "maxUserMessages": 1, "activeMinutes": 60}',
        kind: { type: "json" },
      },
      {
        path: "retention.allowEmptyStore",
        label: "Allow emptying a store",
        help: "a plan may remove every session of a store",
        kind: { type: "bool" },
      },
      {
        path: "retention.autoClean",
        label: "Auto-clean in pi",
        help: "soft delete on session start, at most daily",
        kind: { type: "bool" },
      },
      {
        path: "retention.autoCleanMaxDeletesPerRun",
        label: "Auto-clean at most",
        help: "sessions per run",
        kind: { type: "count" },
      },
      { path: "retention.dryRun", label: "Auto-clean only reports", help: "dry run", kind: { type: "bool" } },
    ],
  },
  {
    title: "Protection and activity",
    fields: [
      {
        path: "protection.protectedPatterns",
        label: "Protected patterns",
        help: "one glob per line, matched against path, file name, namespace and name",
        kind: { type: "lines" },
      },
      {
        path: "activity.graceMinutes",
        label: "Active for (minutes)",
        help: "a session written this recently counts as in use",
        kind: { type: "number", step: 1 },
      },
    ],
  },
  {
    title: "Deletion and stores",
    fields: [
      {
        path: "deletion.target",
        label: "Soft-deleted sessions go to",
        help: "trash: the desktop's trash · quarantine: our own folder",
        kind: { type: "select", options: ["trash", "quarantine"] },
      },
      {
        path: "deletion.quarantineDir",
        label: "Quarantine folder",
        help: "absolute or ~/…; empty = <agentDir>/session-trash",
        kind: { type: "text-or-default" },
      },
      {
        path: "enabled",
        label: "Extension enabled",
        help: "false: the pi extension stays silent",
        kind: { type: "bool" },
      },
      {
        path: "sessionDir",
        label: "pi session folder",
        help: "empty = pi's own locations",
        kind: { type: "text-or-default" },
      },
      {
        path: "stores",
        label: "Stores",
        help: 'JSON list or empty for the defaults: [{"kind": "pi", "root": "~/.pi/agent/sessions"}]',
        kind: { type: "json" },
      },
    ],
  },
];

const keysOf = (path: string) => path.split(".");
function getIn(source: unknown, path: string): unknown {
  let value = source;
  for (const key of keysOf(path)) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}
/** A copy of `draft` with `path` set, or removed when `value` is undefined (back to the default). */
function setIn(draft: Draft, path: string, value: unknown): Draft {
  const [head, ...rest] = keysOf(path);
  const copy = { ...draft };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head!];
    else copy[head!] = value;
    return copy;
  }
  const inner = setIn((draft[head!] as Draft | undefined) ?? {}, rest.join("."), value);
  if (Object.keys(inner).length === 0) delete copy[head!];
  else copy[head!] = inner;
  return copy;
}

export function PolicyPage({
  api,
  onSaved,
}: {
  api: Pick<ApiClient, "policy" | "previewPlan" | "savePolicy">;
  onSaved: () => void;
}) {
  const [policy, setPolicy] = useState<PolicyResponse | undefined>(undefined);
  const [draft, setDraft] = useState<Draft>({});
  const [preview, setPreview] = useState<Plan | undefined>(undefined);
  const [problems, setProblems] = useState<ConfigProblem[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    api.policy().then(
      (p) => {
        setPolicy(p);
        setDraft((p.raw as Draft | undefined) ?? {});
      },
      (e: Error) => setError(e.message),
    );
  }, [api]);

  // The live dry-run: the draft evaluated by the server, a moment after the last keystroke.
  const latest = useRef(0);
  useEffect(() => {
    if (!policy) return;
    const request = ++latest.current;
    const timer = setTimeout(() => {
      api.previewPlan(draft).then(
        (plan) => {
          if (request !== latest.current) return;
          setPreview(plan);
          setProblems([]);
        },
        (e: unknown) => {
          if (request !== latest.current) return;
          setPreview(undefined);
          if (e instanceof ApiError && e.problems.length > 0) setProblems(e.problems);
          else setError((e as Error).message);
        },
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [api, policy, draft]);

  const edit = (path: string, value: unknown) => {
    setDraft((d) => setIn(d, path, value));
    setDirty(true);
    setSaved(undefined);
  };

  async function save() {
    try {
      const result = await api.savePolicy(draft);
      setPolicy(result);
      setDirty(false);
      setSaved(`Saved to ${result.path}.`);
      onSaved();
    } catch (e) {
      if (e instanceof ApiError && e.problems.length > 0) setProblems(e.problems);
      else setError((e as Error).message);
    }
  }

  if (error)
    return (
      <div class="banner error" role="alert">
        {error}
      </div>
    );
  if (!policy) return <p class="empty">Reading the config…</p>;

  const problemAt = (path: string) =>
    problems.filter((p) => p.path === path || p.path.startsWith(`${path}[`) || p.path.startsWith(`${path}.`));
  const shownPaths = new Set(SECTIONS.flatMap((s) => s.fields.map((f) => f.path)));
  const otherProblems = problems.filter((p) => ![...shownPaths].some((path) => problemAt(path).includes(p)));

  return (
    <section aria-labelledby="policy-title" class="policy">
      <h2 id="policy-title">Policy</h2>
      <p class="hint">
        <code>{policy.path}</code> (
        {policy.source === "defaults" ? "no file yet: the defaults apply" : policy.source}). Empty fields use
        the default.
      </p>

      <div class="preview card" role="status" aria-live="polite" data-testid="policy-preview">
        {problems.length > 0 ? (
          <span class="level-critical">
            The draft has {problems.length} problem{problems.length === 1 ? "" : "s"}; fix them to see what it
            would do.
          </span>
        ) : preview ? (
          <span>
            This policy would select <strong data-testid="preview-count">{preview.candidates.length}</strong>{" "}
            session
            {preview.candidates.length === 1 ? "" : "s"} (
            <strong data-testid="preview-bytes" data-bytes={preview.bytesToFree}>
              <Bytes value={preview.bytesToFree} />
            </strong>
            ); quota level after:{" "}
            <span class={`level-${preview.quotaAfter.level}`}>{preview.quotaAfter.level}</span>
            {preview.refusal && <> — refused: {preview.refusal.message}</>}
          </span>
        ) : (
          "Evaluating…"
        )}
      </div>

      {otherProblems.length > 0 && (
        <div class="banner error" role="alert">
          <ul>
            {otherProblems.map((p) => (
              <li key={p.path + p.message}>
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}

      <form onSubmit={(e) => (e.preventDefault(), void save())}>
        {SECTIONS.map((section) => (
          <fieldset key={section.title}>
            <legend>{section.title}</legend>
            {section.fields.map((field) => (
              <FieldRow
                key={field.path}
                field={field}
                value={getIn(draft, field.path)}
                fallback={getIn(DEFAULT_CONFIG as Config, field.path)}
                problems={problemAt(field.path)}
                onChange={(value) => edit(field.path, value)}
              />
            ))}
          </fieldset>
        ))}
        <footer class="selection-bar">
          <span>{saved ?? (dirty ? "Unsaved changes." : "No changes.")}</span>
          <button
            type="button"
            disabled={!dirty}
            onClick={() => (setDraft((policy.raw as Draft | undefined) ?? {}), setDirty(false))}
          >
            Discard
          </button>
          <button
            type="submit"
            class="primary"
            data-testid="policy-save"
            disabled={!dirty || problems.length > 0}
          >
            Save
          </button>
        </footer>
      </form>
    </section>
  );
}

function FieldRow({
  field,
  value,
  fallback,
  problems,
  onChange,
}: {
  field: Field;
  value: unknown;
  fallback: unknown;
  problems: ConfigProblem[];
  /** undefined: back to the default (the key leaves the file). */
  onChange: (value: unknown) => void;
}) {
  const id = `field-${field.path.replaceAll(".", "-")}`;
  const shown = value === undefined ? fallback : value;
  const invalid = problems.length > 0;
  const describedBy = `${id}-help${invalid ? ` ${id}-problem` : ""}`;
  const common = { id, "aria-describedby": describedBy, "aria-invalid": invalid, "data-testid": id };
  const number = (text: string) => (text.trim() === "" ? undefined : Number(text));
  let input;
  switch (field.kind.type) {
    case "bool":
      input = (
        <input
          type="checkbox"
          {...common}
          checked={shown === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
      break;
    case "select":
      input = (
        <select {...common} value={String(shown)} onChange={(e) => onChange(e.currentTarget.value)}>
          {field.kind.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case "count":
    case "number":
      input = (
        <input
          type="number"
          {...common}
          step={field.kind.type === "number" ? field.kind.step : 1}
          value={typeof shown === "number" ? shown : ""}
          onInput={(e) => onChange(number(e.currentTarget.value))}
        />
      );
      break;
    case "days-or-off":
    case "limit-count":
      input = (
        <input
          type="number"
          {...common}
          placeholder="off"
          value={typeof shown === "number" ? shown : ""}
          onInput={(e) => onChange(number(e.currentTarget.value) ?? null)}
        />
      );
      break;
    case "limit-bytes":
      input = (
        <input
          type="number"
          {...common}
          step="any"
          placeholder="no limit"
          value={typeof shown === "number" ? +(shown / GIB).toFixed(3) : ""}
          onInput={(e) => {
            const gib = number(e.currentTarget.value);
            onChange(gib === undefined ? null : Math.round(gib * GIB));
          }}
        />
      );
      break;
    case "lines":
      input = (
        <textarea
          {...common}
          rows={3}
          value={Array.isArray(shown) ? shown.join("\n") : ""}
          onInput={(e) => {
            const lines = e.currentTarget.value.split("\n").filter((l) => l.trim() !== "");
            onChange(lines.length ? lines : undefined);
          }}
        />
      );
      break;
    case "text-or-default":
      input = (
        <input
          type="text"
          {...common}
          value={typeof shown === "string" ? shown : ""}
          onInput={(e) => onChange(e.currentTarget.value.trim() === "" ? undefined : e.currentTarget.value)}
        />
      );
      break;
    case "json":
      input = <JsonInput common={common} value={shown} onChange={onChange} />;
      break;
  }
  return (
    <div class={`field${invalid ? " invalid" : ""}`}>
      <label for={id}>{field.label}</label>
      {input}
      <small id={`${id}-help`} class="hint">
        {field.help}
      </small>
      {invalid && (
        <small id={`${id}-problem`} class="problem" role="alert" data-testid={`${id}-problem`}>
          {problems.map((p) => `${p.path}: ${p.message}`).join("; ")}
        </small>
      )}
    </div>
  );
}

/** A JSON value edited as text; what does not parse stays in the box with its error, unsaved. */
function JsonInput({
  common,
  value,
  onChange,
}: {
  common: Record<string, unknown>;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [bad, setBad] = useState<string | undefined>(undefined);
  return (
    <>
      <textarea
        {...common}
        rows={2}
        value={text}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (next.trim() === "") return (setBad(undefined), onChange(undefined));
          try {
            onChange(JSON.parse(next));
            setBad(undefined);
          } catch (error) {
            setBad((error as Error).message);
          }
        }}
      />
      {bad && (
        <small class="problem" role="alert">
          not JSON: {bad}
        </small>
      )}
    </>
  );
}
