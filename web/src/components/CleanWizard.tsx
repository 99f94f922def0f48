// The clean wizard (spec §9.2): usage → candidates with their rule → review (count, bytes, the 5
// riskiest, what is kept) → confirm (one click for a small clean; type DELETE for a large one, see
// shared/confirmation.ts) →
// result with an undo that restores exactly what this run moved. It executes only the plan it
// showed: every item goes with the fingerprint the review saw, and the server skips what changed.
import { useEffect, useMemo, useState } from "preact/hooks";
import { confirmationFor } from "../../../shared/confirmation.js";
import { formatPercent } from "../../../shared/format.js";
import type { Plan } from "../../../shared/plan.js";
import type { SessionFilter } from "../../../shared/session-filter.js";
import { fileName, namespaceBase } from "../../../shared/session-title.js";
import { STILL_ON_DISK, type SoftDeleteResult, type TrashActionResult } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { type Tile, Treemap } from "../charts/Treemap.js";
import { Bytes } from "./Bytes.js";
import { CandidatesTable } from "./CandidatesTable.js";
import { Dialog } from "./Dialog.js";
import { PlanWarnings } from "./PlanWarnings.js";

/** Items per delete request: the server takes bodies up to 64 KiB. */
const BATCH = 300;
/**
 * Ids one hand-picked selection can carry within that limit (pi ids are 36 characters). "Every
 * session matching the filter" has no such limit: the filter is sent, not the ids.
 */
export const MAX_SELECTION = 1500;

export type CleanSource =
  | { kind: "selection"; ids: string[] }
  /**
   * Every session matching the filter: the server evaluates `filter` on its own index. `ids` is
   * what the table showed selected — only compared with the plan on screen, never sent.
   */
  | { kind: "filter"; filter: SessionFilter; ids: string[] }
  | { kind: "policy" };

const TITLES: Record<CleanSource["kind"], string> = {
  policy: "Clean by policy",
  selection: "Clean selected sessions",
  filter: "Clean every session matching the filter",
};

type Step = "usage" | "candidates" | "review" | "confirm" | "result";
const STEPS: Step[] = ["usage", "candidates", "review", "confirm", "result"];
const STEP_TITLES: Record<Step, string> = {
  usage: "Current usage",
  candidates: "Candidates",
  review: "Review",
  confirm: "Confirm",
  result: "Result",
};

/** Per namespace, what goes (highlighted: the ticked candidates) and what stays, as treemap tiles. */
function whatGoes(plan: Plan, ticked: ReadonlySet<string>): Tile[] {
  const tiles = new Map<string, Tile>();
  const add = (namespace: string, bytes: number, going: boolean) => {
    const key = `${going ? "go" : "keep"}:${namespace}`;
    const name = namespace.slice(namespace.replace(/\/+$/, "").lastIndexOf("/") + 1) || namespace;
    const tile = tiles.get(key) ?? {
      key,
      label: going ? `${name} (removed)` : name,
      title: namespace,
      bytes: 0,
      count: 0,
      highlight: going,
    };
    tile.bytes += bytes;
    tile.count += 1;
    tiles.set(key, tile);
  };
  for (const c of plan.candidates) add(c.namespace, c.sizeBytes, ticked.has(c.id));
  for (const k of plan.kept) add(k.namespace, k.sizeBytes, false);
  return [...tiles.values()];
}

/**
 * A session by its title (name, else first message, else time: session-title.ts) with its
 * namespace's folder and file name after it, the full path on hover: absolute paths drown the list.
 * Kept sessions come without a title (the plan does not name them): their file name stands in.
 */
function SessionName({ path, namespace, title }: { path: string; namespace: string; title?: string }) {
  return (
    <span title={path}>
      {title !== undefined && <span data-testid="session-title">{title} </span>}
      <span class="hint" title={namespace}>
        {namespaceBase(namespace)} ›{" "}
      </span>
      <code class={title !== undefined ? "session-file" : undefined}>{fileName(path)}</code>
    </span>
  );
}

export function CleanWizard({
  api,
  source,
  onClose,
  onOpen,
}: {
  api: Pick<ApiClient, "plan" | "planSelection" | "deleteSessions" | "trash" | "restore">;
  source: CleanSource;
  /** Opens a candidate's details in the session drawer. */
  onOpen?: (id: string) => void;
  /** `changed`: something moved, the caller reloads. */
  onClose: (changed: boolean) => void;
}) {
  const [plan, setPlan] = useState<Plan | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<Step>("usage");
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SoftDeleteResult | undefined>(undefined);
  /** The trash operations this run made (one per batch): what undo restores. */
  const [operations, setOperations] = useState<string[]>([]);
  const [undone, setUndone] = useState<TrashActionResult | undefined>(undefined);
  /** The candidates left ticked: exactly what a delete sends. */
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (source.kind === "selection" && source.ids.length > MAX_SELECTION)
      return setError(
        `${source.ids.length.toLocaleString("en-US")} sessions are selected; a hand-picked selection takes at most ${MAX_SELECTION.toLocaleString("en-US")}. To clean more at once, filter the table and tick the header box: every session matching the filter has no such limit. Or let a policy choose (Clean by policy on the overview).`,
      );
    (source.kind === "policy"
      ? api.plan()
      : api.planSelection(source.kind === "filter" ? { filter: source.filter } : { ids: source.ids })
    ).then(
      (made) => {
        setPlan(made);
        // Every candidate starts ticked: the plan as the policy (or the selection) made it.
        setTicked(new Set(made.candidates.map((c) => c.id)));
      },
      (e: Error) => setError(e.message),
    );
  }, [api, source]);

  const allCandidates = plan?.candidates ?? [];
  /** The candidates that go: the ticked ones, in the plan's order. */
  const candidates = useMemo(() => allCandidates.filter((c) => ticked.has(c.id)), [allCandidates, ticked]);
  const tickedBytes = useMemo(() => candidates.reduce((sum, c) => sum + c.sizeBytes, 0), [candidates]);
  const goes = useMemo(() => plan && whatGoes(plan, ticked), [plan, ticked]);
  const selectedIds = source.kind === "policy" ? undefined : new Set(source.ids);
  const keptOfSelection = plan && selectedIds ? plan.kept.filter((k) => selectedIds.has(k.id)) : [];
  const confirmation = confirmationFor({
    sessions: candidates.length,
    bytes: tickedBytes,
    storeBytes: plan?.before.totalBytes ?? 0,
  });
  const mustType = confirmation.typed;
  const confirmed = !mustType || typed === "DELETE";

  async function execute() {
    setBusy(true);
    try {
      const merged: SoftDeleteResult = { dryRun: false, moved: [], skipped: [], bytesFreed: 0 };
      const made: string[] = [];
      // The server keeps the plan it showed: one request executes exactly it. (Ids and fingerprints
      // go in batches only for a plan without a preview id.)
      // Only the ticked candidates go: the preview's ids are named when some were unticked.
      const all = candidates.length === allCandidates.length;
      const requests = plan?.previewId
        ? [{ previewId: plan.previewId, ...(all ? {} : { ids: candidates.map((c) => c.id) }), dryRun: false }]
        : Array.from({ length: Math.ceil(candidates.length / BATCH) }, (_, i) => ({
            items: candidates
              .slice(i * BATCH, (i + 1) * BATCH)
              .map((c) => ({ id: c.id, fingerprint: c.fingerprint! })),
            dryRun: false,
          }));
      for (const request of requests) {
        const done = await api.deleteSessions(request);
        if (done.operationId) made.push(done.operationId);
        merged.moved.push(...done.moved);
        merged.skipped.push(...done.skipped);
        merged.bytesFreed += done.bytesFreed;
      }
      setOperations(made);
      setResult(merged);
      setStep("result");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function undo() {
    setBusy(true);
    try {
      const { entries } = await api.trash();
      const refs = entries
        .filter((e) => e.state === "in-trash" && operations.some((op) => e.entryId.startsWith(`${op}:`)))
        .map((e) => e.entryId);
      setUndone(refs.length ? await api.restore(refs) : { done: [], skipped: [] });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const index = STEPS.indexOf(step);
  const next = () => setStep(STEPS[index + 1]!);
  const back = () => setStep(STEPS[index - 1]!);

  return (
    <Dialog
      class="dialog wizard"
      labelledBy="wizard-title"
      testId="wizard"
      // Escape cancels, except on the result (what was done, and its undo, must be seen) and while
      // the move runs: closing then would hide a deletion that goes on, and its result and undo.
      onEscape={step === "result" || busy ? undefined : () => onClose(false)}
    >
      {/* Not a banner landmark: the page has one, and a second confuses screen readers (axe). */}
      <header role="none">
        <h2 id="wizard-title">
          {TITLES[source.kind]} — {STEP_TITLES[step]}
        </h2>
        <ol class="steps" aria-label="Steps">
          {STEPS.map((s, i) => (
            <li
              key={s}
              class={i === index ? "current" : i < index ? "done" : ""}
              aria-current={i === index ? "step" : undefined}
            >
              {STEP_TITLES[s]}
            </li>
          ))}
        </ol>
      </header>

      {error && (
        <div class="banner error" role="alert" data-testid="wizard-error">
          {error}
        </div>
      )}
      {!plan && !error && <p class="empty">Looking at the stores…</p>}

      {plan && step === "usage" && (
        <div data-testid="wizard-usage">
          <p>
            {plan.before.sessionCount.toLocaleString("en-US")} sessions use{" "}
            <Bytes value={plan.before.totalBytes} />. Quota level:{" "}
            <span class={`level level-${plan.quotaBefore.level}`}>{plan.quotaBefore.level}</span>
            {plan.quotaBefore.size && <> · size {formatPercent(plan.quotaBefore.size.ratio)} of the limit</>}
            {plan.quotaBefore.count && (
              <> · count {formatPercent(plan.quotaBefore.count.ratio)} of the limit</>
            )}
            .
          </p>
          <p class="hint">Mode: {plan.mode}.</p>
          <PlanWarnings plan={plan} />
        </div>
      )}

      {plan && step === "candidates" && (
        <div data-testid="wizard-candidates">
          <PlanWarnings plan={plan} />
          {allCandidates.length === 0 ? (
            <p class="empty">
              Nothing to clean:{" "}
              {source.kind === "policy"
                ? "the policy selects no session."
                : "every selected session is kept."}
            </p>
          ) : (
            <>
              <p data-testid="ticked-total">
                {candidates.length.toLocaleString("en-US")} of {allCandidates.length.toLocaleString("en-US")}{" "}
                ticked · <Bytes value={tickedBytes} />
              </p>
              <CandidatesTable
                candidates={allCandidates}
                ticked={ticked}
                onTicked={setTicked}
                onOpen={onOpen}
              />
            </>
          )}
          {source.kind === "filter" && allCandidates.length !== source.ids.length && (
            <p class="banner info" data-testid="wizard-filter-differs">
              The table showed {source.ids.length.toLocaleString("en-US")} matching session
              {source.ids.length === 1 ? "" : "s"} that may be cleaned; the stores as they are now give{" "}
              {allCandidates.length.toLocaleString("en-US")}. This plan is what will be cleaned.
            </p>
          )}
          {keptOfSelection.length > 0 && (
            <>
              <h3>Selected but kept</h3>
              <ul data-testid="wizard-kept">
                {keptOfSelection.slice(0, 200).map((k) => (
                  <li key={k.id}>
                    <SessionName path={k.path} namespace={k.namespace} />: {k.reason} — {k.detail}
                    {(k.reason === "recent" ||
                      k.reason === "last-in-namespace" ||
                      k.reason === "protected") && (
                      <>
                        {" "}
                        <a href="#/policy" data-testid="kept-change-policy">
                          change the policy
                        </a>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}

      {plan && step === "review" && (
        <div data-testid="wizard-review">
          <p class="big-line">
            <strong data-testid="review-count">{candidates.length}</strong> session
            {candidates.length === 1 ? "" : "s"} ·{" "}
            <strong data-testid="review-bytes" data-bytes={tickedBytes}>
              <Bytes value={tickedBytes} />
            </strong>{" "}
            to move to the trash ({confirmation.summary})
            {candidates.length === allCandidates.length && (
              <>
                {" "}
                · quota after:{" "}
                <span class={`level level-${plan.quotaAfter.level}`}>{plan.quotaAfter.level}</span>
              </>
            )}
          </p>
          <Treemap
            tiles={goes ?? []}
            label="What this cleanup removes (highlighted) and keeps, per namespace"
          />
          {plan.refusal && (
            <div class="banner error" role="alert">
              {plan.refusal.message}
            </div>
          )}
          {plan.riskiest.some((c) => ticked.has(c.id)) && (
            <>
              <h3>The riskiest (largest or most recently used)</h3>
              <ul data-testid="wizard-riskiest">
                {plan.riskiest
                  .filter((c) => ticked.has(c.id))
                  .map((c) => (
                    <li key={c.id}>
                      <SessionName path={c.path} namespace={c.namespace} title={c.title} /> ·{" "}
                      <Bytes value={c.sizeBytes} /> · last used {new Date(c.lastUsedAt).toLocaleString()}
                    </li>
                  ))}
              </ul>
            </>
          )}
          <p class="hint">
            Sessions go to the trash (restorable) — nothing is deleted for good here. Active, pinned and
            protected sessions are never moved.
          </p>
        </div>
      )}

      {plan && step === "confirm" && (
        <div data-testid="wizard-confirm">
          {mustType ? (
            <label>
              This clean is large: it <strong data-testid="confirm-share">{confirmation.summary}</strong>.
              Type <strong>DELETE</strong> to move {candidates.length.toLocaleString("en-US")} session
              {candidates.length === 1 ? "" : "s"} (
              <Bytes value={tickedBytes} />) to the trash
              <input
                data-testid="confirm-input"
                autoComplete="off"
                value={typed}
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            </label>
          ) : (
            <p data-testid="confirm-small">
              Move{" "}
              {candidates.length === 1 ? (
                <strong title={candidates[0]?.path}>{candidates[0]?.title ?? candidates[0]?.path}</strong>
              ) : (
                <>{candidates.length} sessions</>
              )}{" "}
              (<Bytes value={tickedBytes} />, <span data-testid="confirm-share">{confirmation.summary}</span>)
              to the trash? The result offers Undo.
            </p>
          )}
        </div>
      )}

      {step === "result" && result && (
        <div data-testid="wizard-result">
          <p class="big-line">
            <strong data-testid="result-moved">{result.moved.length}</strong> session
            {result.moved.length === 1 ? "" : "s"} ·{" "}
            <strong>
              <Bytes value={result.bytesFreed} />
            </strong>{" "}
            <span data-testid="result-still-on-disk">{STILL_ON_DISK}</span>
          </p>
          {result.skipped.length > 0 && (
            <>
              <h3>Skipped</h3>
              <ul data-testid="result-skipped">
                {result.skipped.map((s) => (
                  <li key={s.id}>
                    <code>{s.path ?? s.id}</code>: {s.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
          {undone ? (
            <p data-testid="undo-result">
              Restored {undone.done.length} session{undone.done.length === 1 ? "" : "s"}
              {undone.skipped.length > 0 && `; ${undone.skipped.length} could not be restored (see Trash)`}.
            </p>
          ) : (
            result.moved.length > 0 && (
              <p class="hint">Changed your mind? Undo puts every moved session back where it was.</p>
            )
          )}
        </div>
      )}

      <footer>
        {step === "result" ? (
          <>
            {result && result.moved.length > 0 && !undone && (
              <button type="button" data-testid="undo" disabled={busy} onClick={() => void undo()}>
                Undo
              </button>
            )}
            <button type="button" class="primary" data-testid="wizard-close" onClick={() => onClose(true)}>
              Done
            </button>
          </>
        ) : (
          <>
            {busy && step === "confirm" && (
              <span class="hint" role="status" data-testid="wizard-moving">
                Moving to the trash: this cannot be cancelled part-way; the result and its Undo follow.
              </span>
            )}
            <button type="button" data-testid="wizard-cancel" disabled={busy} onClick={() => onClose(false)}>
              Cancel
            </button>
            {index > 0 && (
              <button type="button" disabled={busy} onClick={back}>
                Back
              </button>
            )}
            {step === "confirm" ? (
              <button
                type="button"
                class="danger"
                data-testid="wizard-execute"
                disabled={!confirmed || busy || candidates.length === 0 || !!plan?.refusal}
                onClick={() => void execute()}
              >
                {busy ? "Moving…" : "Move to trash"}
              </button>
            ) : (
              <button
                type="button"
                class="primary"
                data-testid="wizard-next"
                disabled={!plan || (step !== "usage" && candidates.length === 0)}
                title={
                  plan && step !== "usage" && allCandidates.length > 0 && candidates.length === 0
                    ? "Tick at least one session"
                    : undefined
                }
                onClick={next}
              >
                Next
              </button>
            )}
          </>
        )}
      </footer>
    </Dialog>
  );
}
