// A delete while it runs and once it is done, as the clean wizard shows it and as a page that was
// reloaded or left mid-run finds it again: the progress with its Stop, then what moved and what did
// not, with the Undo that restores exactly what moved.
import type { OperationStatus } from "../../../shared/api.js";
import {
  type CleanupSince,
  type SoftDeleteResult,
  STILL_ON_DISK,
  STOPPED_REASON,
  type TrashActionResult,
  undoRefs,
} from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { progressText, sinceText } from "../state/operation.js";
import { AgentChecks } from "./AgentChecks.js";
import { Bytes } from "./Bytes.js";
import { SessionName } from "./SessionName.js";

type Running = Extract<OperationStatus, { state: "running" }>;

/** Rows a result lists of each kind; the rest are counted (a stopped 20,000-session run lists no 20,000 rows). */
const LISTED = 200;

/** The running delete: a progress bar, its count (announced politely), and why Stop is (not) there. */
export function DeleteProgress({ status, onStop }: { status: Running; onStop: () => void }) {
  const moving = status.phase === "moving";
  return (
    <div class="operation-progress" data-testid="operation-progress">
      <progress
        aria-label="Moving to the trash"
        max={moving ? Math.max(status.total, 1) : undefined}
        value={moving ? status.done : undefined}
      />
      <p role="status" aria-live="polite" data-testid="operation-progress-text">
        {progressText(status)}
      </p>
      <p class="actions">
        <button
          type="button"
          data-testid="operation-stop"
          disabled={status.stopRequested}
          aria-describedby="operation-stop-why"
          onClick={onStop}
        >
          Stop after this item
        </button>{" "}
        <span class="hint" id="operation-stop-why">
          {status.stopRequested
            ? "Stopping: the session being moved finishes, nothing after it moves."
            : "What has moved stays in the trash, with its Undo; the rest stays where it is."}
        </span>
      </p>
    </div>
  );
}

/** Restores what the engine operations `made` moved that is still in the trash. */
export async function undoMoves(
  api: Pick<ApiClient, "trash" | "restore">,
  made: readonly string[],
): Promise<TrashActionResult> {
  const refs = undoRefs((await api.trash()).entries, made);
  return refs.length ? api.restore(refs) : { done: [], skipped: [] };
}

const count = (n: number) => n.toLocaleString("en-US");

/** A time of today as "10:42", of another day with its date. */
function clock(iso: string): string {
  const when = new Date(iso);
  return when.toDateString() === new Date().toDateString()
    ? when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** How many of what a delete moved its Undo would restore now: what the server says is still in the trash. */
export const undoable = (result: SoftDeleteResult, since: CleanupSince | undefined): number =>
  since ? since.inTrash : result.moved.length;

/**
 * What a delete did: moved (with the bytes), stopped after N of M, what stayed and why, the undo's
 * outcome, and what became of what moved since (`since`: restored by any means, as the server's
 * journal says — a result seen again after an Undo says it was undone).
 */
export function DeleteResult({
  result,
  undone,
  since,
}: {
  result: SoftDeleteResult;
  undone: TrashActionResult | undefined;
  since?: CleanupSince | undefined;
}) {
  const stoppedOut = result.skipped.filter((s) => s.reason === STOPPED_REASON);
  const otherSkips = result.skipped.filter((s) => !stoppedOut.includes(s));
  const putBack =
    (undone !== undefined && undone.done.length === result.moved.length) ||
    (since !== undefined && result.moved.length > 0 && since.restored >= result.moved.length);
  const afterwards = since && sinceText(result.moved.length, since, clock);
  const left = undoable(result, since);
  return (
    <div data-testid="wizard-result">
      <p class="big-line">
        <strong data-testid="result-moved">{result.moved.length}</strong> session
        {result.moved.length === 1 ? "" : "s"} ·{" "}
        <strong>
          <Bytes value={result.bytesFreed} />
        </strong>{" "}
        {/* After Undo the sessions are back: "still on disk until emptied" would no longer be true. */}
        {putBack ? (
          <span data-testid="result-undone">moved to the trash, then put back</span>
        ) : (
          <span data-testid="result-still-on-disk">{STILL_ON_DISK}</span>
        )}
      </p>
      {(result.lost?.length ?? 0) > 0 && (
        <div class="banner error" role="alert" data-testid="result-lost">
          <strong>
            {count(result.lost!.length)} session{result.lost!.length === 1 ? " was" : "s were"} lost outside
            the selection — not in the trash:
          </strong>
          <ul>
            {result.lost!.slice(0, LISTED).map((l) => (
              <li key={l.path}>
                <code>{l.path}</code>: {l.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <AgentChecks checks={result.checks} />
      {result.stopped && (
        <p class="banner info" data-testid="result-stopped">
          Stopped after {count(result.stopped.after)} of {count(result.stopped.of)}:{" "}
          {count(stoppedOut.length)} session{stoppedOut.length === 1 ? " was" : "s were"} not moved and stay
          where they are.
        </p>
      )}
      {result.moved.length > 0 && (
        <details>
          <summary>Moved to the trash ({count(result.moved.length)})</summary>
          <ul data-testid="result-moved-list">
            {result.moved.slice(0, LISTED).map((m) => (
              <li key={m.id}>
                <SessionName session={{ path: m.path }} title={m.title} /> · <Bytes value={m.bytes} />
              </li>
            ))}
            {result.moved.length > LISTED && (
              <li class="hint">…and {count(result.moved.length - LISTED)} more</li>
            )}
          </ul>
        </details>
      )}
      {otherSkips.length > 0 && (
        <>
          <h3>Skipped</h3>
          <ul data-testid="result-skipped">
            {otherSkips.slice(0, LISTED).map((s) => (
              <li key={s.id}>
                <code>{s.path ?? s.id}</code>: {s.reason}
              </li>
            ))}
            {otherSkips.length > LISTED && (
              <li class="hint">…and {count(otherSkips.length - LISTED)} more</li>
            )}
          </ul>
        </>
      )}
      {afterwards && (
        <p class="banner info" data-testid="result-since">
          {afterwards}
        </p>
      )}
      {undone ? (
        <p data-testid="undo-result">
          Restored {undone.done.length} session{undone.done.length === 1 ? "" : "s"}
          {undone.skipped.length > 0 && `; ${undone.skipped.length} could not be restored (see Trash)`}.
        </p>
      ) : (
        left > 0 && (
          <p class="hint">
            Changed your mind? Undo puts{" "}
            {left === result.moved.length ? "every moved session" : `the ${count(left)} still in the trash`}{" "}
            back where {left === 1 ? "it was" : "they were"}.
          </p>
        )
      )}
    </div>
  );
}
