// Policy: a form for every setting of the config file, without JSON. The form's state lives in
// state/policy-form.ts: the draft starts from the file's own JSON (saving writes what the file had
// plus what was changed, never every default), every field is checked by the server's own schema as
// you type, and Save waits until nothing is wrong. A moment after the last edit the server
// evaluates the draft without saving it: the preview says what each rule would clean.
import { useEffect, useMemo } from "preact/hooks";
import type { ConfigProblem } from "../../../shared/config.js";
import { type ApiClient } from "../api/client.js";
import { createPolicyForm, inFormWords, type PolicyForm } from "../state/policy-form.js";
import type { SessionsStore } from "../state/sessions-store.js";
import { fieldId } from "./policy/fields.js";
import { PreviewCard } from "./policy/PreviewCard.js";
import { ProtectionSection } from "./policy/ProtectionSection.js";
import { QuotaSection } from "./policy/QuotaSection.js";
import { RetentionSection } from "./policy/RetentionSection.js";
import type { ScanFacts } from "./policy/scan.js";
import { StoresSection } from "./policy/StoresSection.js";

export function PolicyPage({
  api,
  sessions,
  onSaved,
}: {
  api: Pick<ApiClient, "policy" | "previewPlan" | "savePolicy">;
  /** The sessions table's last look, which the rows count their matches against. */
  sessions: Pick<SessionsStore, "rows" | "namespaces" | "complete" | "loaded" | "loading" | "load">;
  onSaved: () => void;
}) {
  const form = useMemo(() => createPolicyForm(api), [api]);
  useEffect(() => void form.load(), [form]);
  // The table loads when first needed (as the sessions page does); the rows count against it.
  useEffect(() => {
    if (!sessions.loaded.value && !sessions.loading.value) void sessions.load();
  }, [sessions]);

  // The live preview, a moment after the last edit.
  const draft = form.draft.value;
  const loaded = form.policy.value !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => void form.refreshPreview(), 250);
    return () => clearTimeout(timer);
  }, [form, loaded, draft]);

  if (form.loadError.value)
    return (
      <div class="banner error" role="alert">
        {form.loadError.value}
      </div>
    );
  const policy = form.policy.value;
  if (!policy) return <p class="empty">Reading the config…</p>;

  const scan: ScanFacts = {
    rows: sessions.rows.value,
    namespaces: sessions.namespaces.value,
    complete: sessions.complete.value,
  };

  return (
    <section aria-labelledby="policy-title" class="policy">
      <h2 id="policy-title">Policy</h2>
      <p class="hint">
        <code>{policy.path}</code> (
        {policy.source === "defaults" ? "no file yet: the defaults apply" : policy.source}). Empty fields use
        the default.
      </p>
      {policy.source === "invalid" && (
        <div class="banner error" role="alert" data-testid="policy-file-invalid">
          {policy.raw === undefined
            ? "The file is not JSON, so this form starts empty: saving replaces the file with what you set here."
            : "The file has problems (listed below Save): until they are fixed nothing can be deleted."}{" "}
          {policy.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}
        </div>
      )}

      <PreviewCard
        plan={form.preview.value}
        problemCount={form.shownProblems.value.length}
        error={form.previewError.value}
      />

      <form
        onSubmit={(e) => {
          e.preventDefault();
          void form.save().then((ok) => ok && onSaved());
        }}
      >
        <QuotaSection form={form} scan={scan} />
        <RetentionSection form={form} />
        <ProtectionSection form={form} scan={scan} />
        <StoresSection form={form} scan={scan} home={form.home.value} />
        <SaveBar form={form} />
      </form>
    </section>
  );
}

/** A key the schema does not know, at a plain path (not inside a list): removable by name. */
const isUnknownKey = (p: ConfigProblem) => p.message.startsWith("unknown key") && !p.path.includes("[");

/** The problems the save bar lists (the bar stays small; each problem also shows beside its field). */
const SUMMARY_LINES = 3;

/** Save and Discard, with why Save is disabled: every problem, by its path. */
function SaveBar({ form }: { form: PolicyForm }) {
  const problems = form.shownProblems.value;
  const status = form.status.value;
  const dirty = form.dirty.value;
  return (
    <footer class="selection-bar policy-save-bar">
      <div class="save-state" role="status" aria-live="polite" data-testid="policy-status">
        {status ? (
          <p
            class={status.kind === "saved" ? undefined : "level-text level-critical"}
            data-testid={`policy-${status.kind}`}
          >
            {status.message}
          </p>
        ) : (
          problems.length === 0 && <p>{dirty ? "Unsaved changes." : "No changes."}</p>
        )}
        {problems.length > 0 && (
          <div class="level-text level-critical" data-testid="policy-problems">
            Cannot save: {problems.length} problem{problems.length === 1 ? "" : "s"}
            <ul>
              {problems.slice(0, SUMMARY_LINES).map((p) => (
                <li key={p.path + p.message}>
                  {/* The path takes you to its field (keyboard users: the bar is far from most fields). */}
                  <button
                    type="button"
                    class="link"
                    data-testid="problem-go"
                    onClick={() => document.getElementById(fieldId(p.path))?.focus()}
                  >
                    <code>{p.path}</code>
                  </button>
                  : {inFormWords(p.message)}
                  {isUnknownKey(p) && (
                    // A key this form has no field for (a typo in the file) can only be removed.
                    <button type="button" class="link" onClick={() => form.edit(p.path, undefined)}>
                      Remove {p.path}
                    </button>
                  )}
                </li>
              ))}
              {problems.length > SUMMARY_LINES && (
                <li>…and {problems.length - SUMMARY_LINES} more, each beside its field.</li>
              )}
            </ul>
          </div>
        )}
      </div>
      <button type="button" disabled={!dirty} onClick={form.discard}>
        Discard
      </button>
      <button type="submit" class="primary" data-testid="policy-save" disabled={!form.canSave.value}>
        Save
      </button>
    </footer>
  );
}
