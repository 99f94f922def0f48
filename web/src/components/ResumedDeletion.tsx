// A delete the page finds when it opens: it was reloaded or left while sessions moved, or closed
// before the result was dismissed. The server kept the operation, so the page shows its progress
// (with Stop), then its result with the Undo — never a deletion that went on unseen. What was
// restored since (its Undo in the closed page, the Trash page, the CLI) the server reads from the
// journal: an undone delete says so and offers no Undo; a partly undone one, Undo for what is left.
import { useEffect, useState } from "preact/hooks";
import type { OperationStatus } from "../../../shared/api.js";
import type { TrashActionResult } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { type FinishedOperation, followOperation } from "../state/operation.js";
import { DeleteProgress, DeleteResult, undoable, undoMoves } from "./DeleteOperation.js";
import { Dialog } from "./Dialog.js";

type Found = Exclude<OperationStatus, { state: "none" }>;

export function ResumedDeletion({
  api,
  found,
  onMoved,
  onClose,
}: {
  api: Pick<ApiClient, "operation" | "stopOperation" | "dismissOperation" | "trash" | "restore">;
  found: Found;
  /** Sessions moved (or put back): the caller refreshes the table and the selection. */
  onMoved: (ids: string[]) => void;
  onClose: () => void;
}) {
  const [running, setRunning] = useState(found.state === "running" ? found : undefined);
  const [end, setEnd] = useState<FinishedOperation | undefined>(
    found.state === "running" ? undefined : found,
  );
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [undone, setUndone] = useState<TrashActionResult | undefined>(undefined);
  /** What became of what it moved, as the server last said (read again after this page's Undo). */
  const [since, setSince] = useState(found.state === "finished" ? found.since : undefined);

  useEffect(() => {
    if (found.state !== "running") return;
    followOperation(api, found.id, setRunning).then(
      (finished) => {
        setRunning(undefined);
        setEnd(finished);
        if (finished.state === "finished") setSince(finished.since);
      },
      (e: Error) => setError(e.message),
    );
  }, [api, found]);

  const result = end?.state === "finished" ? end.result : undefined;
  useEffect(() => {
    if (result && result.moved.length > 0) onMoved(result.moved.map((m) => m.id));
  }, [result]);

  async function undo() {
    if (!result?.operationId) return;
    setBusy(true);
    try {
      const restored = await undoMoves(api, [result.operationId]);
      setUndone(restored);
      onMoved(restored.done.map((d) => d.id));
      // What is left in the trash now, as the server says.
      const now = await api.operation();
      if (now.state === "finished" && now.id === end?.id) setSince(now.since);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog class="dialog wizard" labelledBy="resumed-title" testId="resumed-deletion">
      {/* Not a <header>: inside a dialog it would be a second banner landmark beside the page's (axe). */}
      <div class="dialog-head">
        <h2 id="resumed-title">
          {running ? "A deletion is running" : "The last deletion's result"} (started{" "}
          {new Date(found.startedAt).toLocaleTimeString()})
        </h2>
      </div>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {running && (
        <DeleteProgress
          status={running}
          onStop={() => {
            setRunning({ ...running, stopRequested: true });
            api.stopOperation(running.id).catch(() => {});
          }}
        />
      )}
      {end?.state === "failed" && (
        <div class="banner error" role="alert" data-testid="resumed-failed">
          The deletion failed: {end.error}
        </div>
      )}
      {result?.refused && (
        <div class="banner error" role="alert">
          Nothing was moved: {result.refused}
        </div>
      )}
      {result && !result.refused && <DeleteResult result={result} undone={undone} since={since} />}
      <footer>
        {result && undoable(result, since) > 0 && !undone && (
          <button type="button" data-testid="undo" disabled={busy} onClick={() => void undo()}>
            Undo
          </button>
        )}
        <button
          type="button"
          class="primary"
          data-testid="resumed-close"
          disabled={!!running && !error}
          onClick={() => {
            if (end) api.dismissOperation(end.id).catch(() => {});
            onClose();
          }}
        >
          Done
        </button>
      </footer>
    </Dialog>
  );
}
