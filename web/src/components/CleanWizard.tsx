// The clean wizard: usage → candidates with their rule → review (count, bytes, the 5
// riskiest, what is kept) → confirm (one click for a small clean; type DELETE for a large one, see
// shared/confirmation.ts) →
// result with an undo that restores exactly what this run moved. It executes only the plan it
// showed: every item goes with the fingerprint the review saw, and the server skips what changed.
import { useEffect, useMemo, useState } from "preact/hooks";
import { confirmationFor } from "../../../shared/confirmation.js";
import { formatPercent } from "../../../shared/format.js";
import type { Plan, PlanPreview } from "../../../shared/plan.js";
import { idsThatFit } from "../../../shared/request-limits.js";
import type { SessionFilter } from "../../../shared/session-filter.js";
import type { OperationStatus } from "../../../shared/api.js";
import { fileName, namespaceBase } from "../../../shared/session-title.js";
import type { SoftDeleteResult, TrashActionResult } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { followOperation } from "../state/operation.js";
import { DeleteProgress, DeleteResult, undoMoves } from "./DeleteOperation.js";
import { type Tile, Treemap } from "../charts/Treemap.js";
import { Bytes } from "./Bytes.js";
import { AgentTakes, notGoing } from "./AgentTakes.js";
import { CandidatesTable } from "./CandidatesTable.js";
import { Dialog } from "./Dialog.js";
import { LeftOut } from "./LeftOut.js";
import { PlanWarnings } from "./PlanWarnings.js";

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

/** Per namespace, what goes (highlighted: the candidates that go) and what stays, as treemap tiles. */
function whatGoes(plan: Plan, moving: ReadonlySet<string>): Tile[] {
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
  for (const c of plan.candidates) add(c.namespace, c.sizeBytes, moving.has(c.id));
  for (const k of plan.kept) add(k.namespace, k.sizeBytes, false);
  return [...tiles.values()];
}

/**
 * A session by its title (name, else first message, else time: session-title.ts) with its
 * namespace's folder and file name after it, the full path on hover: absolute paths drown the list.
 * A kept session is named only in a hand selection's plan; elsewhere its file name stands in.
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
  onMoved,
}: {
  api: Pick<
    ApiClient,
    | "plan"
    | "planSelection"
    | "trash"
    | "restore"
    | "startDelete"
    | "operation"
    | "stopOperation"
    | "dismissOperation"
  >;
  source: CleanSource;
  /** Opens a candidate's details in the session drawer. */
  onOpen?: (id: string) => void;
  /** `changed`: something moved, the caller reloads. */
  onClose: (changed: boolean) => void;
  /** Sessions moved (or put back by Undo): the caller refreshes the table and the selection at once. */
  onMoved?: (ids: string[]) => void;
}) {
  const [plan, setPlan] = useState<PlanPreview | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<Step>("usage");
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SoftDeleteResult | undefined>(undefined);
  /** The trash operation this run made: what undo restores. */
  const [operation, setOperation] = useState<string | undefined>(undefined);
  const [undone, setUndone] = useState<TrashActionResult | undefined>(undefined);
  /** The candidates left ticked: a delete sends those of them that can go (`candidates`). */
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  /** The server's operation while it runs: its progress, and the id Stop names. */
  const [running, setRunning] = useState<Extract<OperationStatus, { state: "running" }> | undefined>();
  /** The finished operation (its result stays on the server until Done dismisses it). */
  const [finished, setFinished] = useState<string | undefined>(undefined);

  useEffect(() => {
    // A hand-picked selection is sent as its ids, in one request; "every session matching the
    // filter" has no such limit: the filter is sent, not the ids.
    const fit = source.kind === "selection" ? idsThatFit(source.ids) : 0;
    if (source.kind === "selection" && fit < source.ids.length)
      return setError(
        `${source.ids.length.toLocaleString("en-US")} sessions are selected; a hand-picked selection is sent as its ids, and one request takes ${fit.toLocaleString("en-US")} of these. To clean more at once, filter the table and tick the header box: every session matching the filter has no such limit. Or let a policy choose (Clean by policy on the overview).`,
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
  /**
   * The candidates that go: the ticked ones, in the plan's order — but for one whose agent's own
   * delete takes a session left unticked (the server would refuse it): the count is what moves.
   */
  const stays = useMemo(() => notGoing(allCandidates, ticked), [allCandidates, ticked]);
  const candidates = useMemo(
    () => allCandidates.filter((c) => ticked.has(c.id) && !stays.has(c.id)),
    [allCandidates, ticked, stays],
  );
  const going = useMemo(() => new Set(candidates.map((c) => c.id)), [candidates]);
  const tickedBytes = useMemo(() => candidates.reduce((sum, c) => sum + c.sizeBytes, 0), [candidates]);
  const goes = useMemo(() => plan && whatGoes(plan, going), [plan, going]);
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
    if (!plan) return;
    setBusy(true);
    try {
      // The server keeps the plan it showed: one request executes exactly it. Only the candidates
      // that go are sent: when some stay (unticked, or held back by an unticked one), the shorter
      // list is named — those that go, or the rest (a few of thousands fit the 64 KiB body; all the
      // rest would not).
      const unticked = allCandidates.filter((c) => !going.has(c.id)).map((c) => c.id);
      const ticks =
        unticked.length === 0
          ? {}
          : unticked.length < candidates.length
            ? { except: unticked }
            : { ids: candidates.map((c) => c.id) };
      // It runs as a server operation the page follows: its progress shows, Stop ends it after the
      // current item, and a reload finds its result waiting (see ResumedDeletion).
      const started = await api.startDelete({ previewId: plan.previewId, ...ticks, dryRun: false });
      if (started.state !== "running") throw new Error("The server did not start the deletion.");
      setRunning(started);
      const end = await followOperation(api, started.id, setRunning);
      setFinished(end.id);
      if (end.state === "failed") throw new Error(end.error);
      const done = end.result;
      if (done.refused) throw new Error(done.refused);
      if (done.moved.length > 0) onMoved?.(done.moved.map((m) => m.id));
      setOperation(done.operationId);
      setResult(done);
      setStep("result");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setRunning(undefined);
      setBusy(false);
    }
  }

  async function undo() {
    setBusy(true);
    try {
      const restored = await undoMoves(api, operation ? [operation] : []);
      setUndone(restored);
      onMoved?.(restored.done.map((d) => d.id));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  /** Closes, letting the server forget the results seen here (a refused or failed run's too). */
  const close = (changed: boolean) => {
    if (finished) api.dismissOperation(finished).catch(() => {});
    onClose(changed);
  };

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
      onEscape={step === "result" || busy ? undefined : () => close(false)}
    >
      {/* Not a <header>: inside a dialog it would be a second banner landmark beside the page's (axe). */}
      <div class="dialog-head">
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
      </div>

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
          <LeftOut groups={plan.leftOut} />
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
                {(candidates.length + stays.size).toLocaleString("en-US")} of{" "}
                {allCandidates.length.toLocaleString("en-US")} ticked
                {stays.size > 0 && <> · {candidates.length.toLocaleString("en-US")} will move</>} ·{" "}
                <Bytes value={tickedBytes} />
              </p>
              <CandidatesTable
                candidates={allCandidates}
                ticked={ticked}
                onTicked={setTicked}
                onOpen={onOpen}
              />
              <AgentTakes candidates={allCandidates} ticked={ticked} />
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
                    <SessionName path={k.path} namespace={k.namespace} title={k.title} />: {k.reason} —{" "}
                    {k.detail}
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
          <LeftOut groups={plan.leftOut} />
          <AgentTakes candidates={allCandidates} ticked={ticked} />
          {plan.riskiest.some((c) => going.has(c.id)) && (
            <>
              <h3>The riskiest (largest or most recently used)</h3>
              <ul data-testid="wizard-riskiest">
                {plan.riskiest
                  .filter((c) => going.has(c.id))
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

      {step === "confirm" && running && (
        <DeleteProgress
          status={running}
          onStop={() => {
            setRunning({ ...running, stopRequested: true });
            api.stopOperation(running.id).catch(() => {}); // it may have just finished: the result says
          }}
        />
      )}

      {step === "result" && result && <DeleteResult result={result} undone={undone} />}

      <footer>
        {step === "result" ? (
          <>
            {result && result.moved.length > 0 && !undone && (
              <button type="button" data-testid="undo" disabled={busy} onClick={() => void undo()}>
                Undo
              </button>
            )}
            <button
              type="button"
              class="primary"
              data-testid="wizard-close"
              // The result was seen: the server may forget it (a reload then shows no old result).
              onClick={() => close(true)}
            >
              Done
            </button>
          </>
        ) : (
          <>
            {busy && step === "confirm" && (
              <span class="hint footer-note" data-testid="wizard-moving">
                Closing is not possible while sessions move: use Stop after this item; the result and its Undo
                follow.
              </span>
            )}
            <button type="button" data-testid="wizard-cancel" disabled={busy} onClick={() => close(false)}>
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
                    ? stays.size > 0
                      ? "Nothing ticked can move: tick what its agent's delete takes with it too"
                      : "Tick at least one session"
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
