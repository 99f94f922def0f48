// Trash: everything soft-deleted, grouped by the cleanup that moved it (when, how many, how big, what
// started it), with what it all holds on disk. Restore is one click (a whole cleanup, or a selection):
// it loses nothing. Purge is for good, so it asks to type the number of sessions, and the server
// purges only if count and bytes match exactly; "Empty items older than 30 days" is a purge too. A
// restored Claude Code session keeps its old file time, so Claude's own cleanup may delete it again:
// the page says so and offers to keep it.
import { useEffect, useRef, useState } from "preact/hooks";
import {
  type CleanupTrigger,
  deletedBefore,
  describeTrigger,
  groupByCleanup,
  purgeConfirmation,
  type TrashActionResult,
  type TrashEntry,
  trashTotals,
} from "../../../shared/trash.js";
import { fileName } from "../../../shared/session-title.js";
import type { ApiClient } from "../api/client.js";
import { formatBytes } from "../../../shared/format.js";
import { AgentChecks } from "../components/AgentChecks.js";
import { Bytes } from "../components/Bytes.js";
import { RelativeTime } from "../components/RelativeTime.js";
import { SessionName } from "../components/SessionName.js";
import { Dialog } from "../components/Dialog.js";
import { keptMessage, SweepWarning } from "../components/SweepWarning.js";

const TARGET_LABELS = { "system-trash": "system trash", quarantine: "quarantine" } as const;

/** "Empty items older than N days": what a month-old cleanup is unlikely to be wanted back after. */
export const EMPTY_AFTER_DAYS = 30;

/** What a purge dialog is about to delete for good: a selection, or what is older than N days. */
type PurgeTarget = { kind: "selection" } | { kind: "older"; days: number };

/** What could not be done to one entry, said plainly: which session, what is wrong, what to do. */
interface NotDone {
  ref: string;
  path: string;
  /** A file is at the original path again (the engine's `pathTaken`). */
  occupied: boolean;
  reason: string;
}

export function TrashPage({
  api,
  now,
  onChanged,
}: {
  api: Pick<ApiClient, "trash" | "restore" | "purge" | "emptyTrash" | "keep">;
  now: Date;
  onChanged: () => void;
}) {
  const [entries, setEntries] = useState<TrashEntry[] | undefined>(undefined);
  const [triggers, setTriggers] = useState<CleanupTrigger[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [purging, setPurging] = useState<PurgeTarget | undefined>(undefined);
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  /** Where focus goes after a restore or purge: the button pressed may be gone with its rows. */
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [notDone, setNotDone] = useState<NotDone[]>([]);
  /** Restored sessions Claude Code will delete again at its next run, with their bytes. */
  const [checks, setChecks] = useState<TrashActionResult["checks"]>(undefined);
  const [sweptAgain, setSweptAgain] = useState<{ items: SweptAgain[]; bytes: number } | undefined>(undefined);
  /** Restored sessions another agent's cleanup will delete again, where nothing here can keep them. */
  const [deletedAgain, setDeletedAgain] = useState<SweptAgain[]>([]);

  const load = () =>
    api.trash().then(
      (list) => {
        setEntries(list.entries.filter((e) => e.state !== "restored" && e.state !== "purged"));
        setTriggers(list.triggers ?? []);
        setError(undefined);
      },
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), [api]);

  const chosen = (entries ?? []).filter((e) => selected.has(e.entryId));
  const chosenBytes = chosen.reduce((sum, e) => sum + e.sizeBytes, 0);

  const old = deletedBefore(entries ?? [], new Date(now.getTime() - EMPTY_AFTER_DAYS * 86_400_000));
  const oldBytes = old.reduce((sum, e) => sum + e.sizeBytes, 0);

  /** Restore a selection or a whole cleanup (by its operation id), or purge what `purging` names. */
  async function act(kind: "restore" | "purge", refs: string[] = chosen.map((e) => e.entryId)) {
    try {
      const result: TrashActionResult =
        kind === "restore"
          ? await api.restore(refs)
          : purging?.kind === "older"
            ? await api.emptyTrash(purging.days, purgeConfirmation(old))
            : await api.purge(refs, purgeConfirmation(chosen));
      const count = result.done.length;
      const bytes = result.done.reduce((sum, d) => sum + d.bytes, 0);
      // Only a purge frees space; the bytes are what the server says it removed, not what was asked.
      setOutcome(
        kind === "restore"
          ? `Restored ${count} session${count === 1 ? "" : "s"}.`
          : `Purged ${count} session${count === 1 ? "" : "s"} — freed ${formatBytes(bytes)}.`,
      );
      setNotDone(
        result.skipped.map((s) => ({
          ref: s.ref,
          path: (entries ?? []).find((e) => e.entryId === s.ref)?.originalPath ?? s.ref,
          // The engine refuses to restore over a file that is at the original path again.
          occupied: s.pathTaken === true,
          reason: s.reason,
        })),
      );
      setSweptAgain(sweptAgainOf(result));
      setDeletedAgain((result.sweptAgain ?? []).filter((s) => !s.keepable));
      setChecks(result.checks);
      setSelected(new Set());
      setPurging(undefined);
      const left = document.activeElement;
      onChanged();
      await load();
      // The outcome takes focus where the action left it — not from what the user went on to
      // meanwhile (Keep them in the warning beside it, its dialog): that came after the reload.
      const now = document.activeElement;
      if (now === left || now === document.body || !now?.isConnected) outcomeRef.current?.focus();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  if (error)
    return (
      <div class="banner error" role="alert">
        {error}
      </div>
    );
  if (!entries) return <p class="empty">Reading the trash…</p>;

  const inTrash = entries.filter((e) => e.state === "in-trash");
  const totals = trashTotals(entries);
  const groups = groupByCleanup(entries, triggers);
  return (
    <section aria-labelledby="trash-title">
      <h2 id="trash-title">Trash</h2>
      <div class="trash-summary">
        <p data-testid="trash-totals" data-count={totals.count} data-bytes={totals.bytes}>
          <strong>
            {totals.count.toLocaleString("en-US")} session{totals.count === 1 ? "" : "s"} ·{" "}
            <Bytes value={totals.bytes} />
          </strong>{" "}
          in the trash — still on disk until emptied.
        </p>
        <button
          type="button"
          class="danger"
          data-testid="trash-empty-old"
          data-count={old.length}
          data-bytes={oldBytes}
          disabled={old.length === 0}
          title={old.length === 0 ? `Nothing was deleted more than ${EMPTY_AFTER_DAYS} days ago` : undefined}
          onClick={() => setPurging({ kind: "older", days: EMPTY_AFTER_DAYS })}
        >
          Empty items older than {EMPTY_AFTER_DAYS} days (frees <Bytes value={oldBytes} />
          )…
        </button>
      </div>
      {outcome && (
        <div class="banner info" role="status" data-testid="trash-outcome" tabIndex={-1} ref={outcomeRef}>
          {outcome}
        </div>
      )}
      {notDone.length > 0 && (
        <div class="banner error" role="alert" data-testid="trash-not-done">
          <strong>
            {notDone.length} session{notDone.length === 1 ? " was" : "s were"} not{" "}
            {notDone.some((n) => n.occupied) ? "restored" : "changed"}:
          </strong>
          <ul>
            {notDone.map((n) => (
              <li key={n.ref} data-testid="trash-not-done-item" data-path={n.path}>
                <code>{n.path}</code> —{" "}
                {n.occupied ? (
                  <>
                    a file is at this path again (its agent may have written a new session there). Nothing was
                    overwritten: that file stays, and the trashed copy stays in the trash. Move or rename the
                    file at this path, then restore again.
                  </>
                ) : (
                  n.reason
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {sweptAgain && (
        <SweepWarning
          api={api}
          swept={{ ids: sweptAgain.items.map((s) => s.id), bytes: sweptAgain.bytes }}
          testId="swept-again"
          onKept={(count) => {
            setSweptAgain(undefined);
            setOutcome(keptMessage(count));
            onChanged();
          }}
        >
          <p>
            <strong>
              Claude Code will delete {sweptAgain.items.length} of the restored sessions again the next time
              it runs:
            </strong>{" "}
            a transcript keeps its old file time when it comes back, and these are older than Claude Code's{" "}
            <code>cleanupPeriodDays</code>.
          </p>
          <ul>
            {/* The server's sentence for each names the setting and the CLI command: on hover only. */}
            {sweptAgain.items.map((s) => (
              <li key={s.id} data-testid="swept-again-item" data-path={s.path} title={s.message}>
                <code>{s.path}</code>
              </li>
            ))}
          </ul>
        </SweepWarning>
      )}
      <AgentChecks checks={checks} />
      {deletedAgain.length > 0 && (
        <div class="banner warn" role="status" data-testid="deleted-again">
          <p>
            <strong>
              {deletedAgain.length} of the restored sessions will be deleted again by their agent's own
              cleanup:
            </strong>
          </p>
          <ul>
            {/* No action here can keep them, so what the agent does and why is said in full. */}
            {deletedAgain.map((s) => (
              <li key={s.id} data-testid="deleted-again-item" data-path={s.path}>
                <code>{s.path}</code> — {s.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {entries.length === 0 ? (
        <p class="empty" data-testid="trash-empty">
          The trash is empty. Cleaned sessions appear here until they are restored or purged.
        </p>
      ) : (
        <table class="data" data-testid="trash-table">
          <thead>
            <tr>
              <th scope="col" class="select">
                <input
                  type="checkbox"
                  aria-label="Select everything in the trash"
                  checked={inTrash.length > 0 && inTrash.every((e) => selected.has(e.entryId))}
                  onChange={(e) =>
                    setSelected(new Set(e.currentTarget.checked ? inTrash.map((x) => x.entryId) : []))
                  }
                />
              </th>
              <th scope="col">Session</th>
              <th scope="col">Went to</th>
              <th scope="col">Deleted</th>
              <th scope="col" class="num">
                Size
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          {groups.map((g) => (
            <tbody key={g.operationId} data-testid="trash-group" data-operation={g.operationId}>
              <tr class="group-row">
                <th scope="rowgroup" colSpan={6}>
                  <span data-testid="trash-group-summary">
                    <RelativeTime iso={g.deletedAt} now={now} /> · {g.entries.length} session
                    {g.entries.length === 1 ? "" : "s"} ·{" "}
                    <Bytes value={g.entries.reduce((s, e) => s + e.sizeBytes, 0)} />
                    {describeTrigger(g.trigger) && <> · {describeTrigger(g.trigger)}</>}
                  </span>{" "}
                  <button
                    type="button"
                    data-testid="trash-group-restore"
                    disabled={g.inTrash.count === 0}
                    aria-label={`Restore this cleanup: ${g.inTrash.count} session${g.inTrash.count === 1 ? "" : "s"}`}
                    // The operation id restores everything of it still in the trash (what `clean` prints as its undo).
                    onClick={() => void act("restore", [g.operationId])}
                  >
                    Restore this cleanup
                  </button>
                </th>
              </tr>
              {g.entries.map((e) => (
                <tr key={e.entryId} data-testid="trash-row" data-path={e.originalPath}>
                  <td class="select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${e.title ?? fileName(e.originalPath)} (${e.originalPath})`}
                      disabled={e.state !== "in-trash"}
                      checked={selected.has(e.entryId)}
                      onChange={(ev) => {
                        const next = new Set(selected);
                        if (ev.currentTarget.checked) next.add(e.entryId);
                        else next.delete(e.entryId);
                        setSelected(next);
                      }}
                    />
                  </td>
                  <td title={e.originalPath} data-testid="trash-name">
                    <SessionName session={{ path: e.originalPath }} title={e.title} namespace={e.namespace} />
                  </td>
                  <td title={e.location}>{TARGET_LABELS[e.target]}</td>
                  <td>
                    <RelativeTime iso={e.deletedAt} now={now} />
                  </td>
                  <td class="num">
                    <Bytes value={e.sizeBytes} />
                  </td>
                  <td>
                    <span
                      class={e.state === "conflict" || e.state === "gone" ? "badge warning" : "badge"}
                      data-testid="trash-state"
                    >
                      {e.state === "gone" ? "gone from the trash" : e.state}
                    </span>
                    {notDone.some((n) => n.ref === e.entryId && n.occupied) && (
                      <span
                        class="badge warning"
                        data-testid="trash-row-occupied"
                        title="A file is at the original path again; restoring would overwrite it"
                      >
                        original path taken
                      </span>
                    )}
                    {e.reason && <span class="hint"> {e.reason}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      )}

      <footer class="selection-bar">
        <span data-testid="trash-selection">
          {chosen.length} selected · <Bytes value={chosenBytes} />
        </span>
        <button
          type="button"
          data-testid="trash-restore"
          disabled={chosen.length === 0}
          onClick={() => void act("restore")}
        >
          Restore
        </button>
        <button
          type="button"
          class="danger"
          data-testid="trash-purge"
          disabled={chosen.length === 0}
          onClick={() => setPurging({ kind: "selection" })}
        >
          Purge…
        </button>
      </footer>

      {purging && (
        <PurgeDialog
          count={purging.kind === "older" ? old.length : chosen.length}
          bytes={purging.kind === "older" ? oldBytes : chosenBytes}
          what={purging.kind === "older" ? `deleted more than ${purging.days} days ago` : "selected"}
          onCancel={() => setPurging(undefined)}
          onConfirm={() => void act("purge")}
        />
      )}
    </section>
  );
}

type SweptAgain = NonNullable<TrashActionResult["sweptAgain"]>[number];

/** A restore's sessions that Claude Code would sweep again (those `keep` can keep), and their bytes. */
function sweptAgainOf(result: TrashActionResult) {
  const items = (result.sweptAgain ?? []).filter((s) => s.keepable);
  if (items.length === 0) return undefined;
  const ids = new Set(items.map((s) => s.id));
  const bytes = result.done.reduce((sum, d) => sum + (ids.has(d.id) ? d.bytes : 0), 0);
  return { items, bytes };
}

/**
 * The second confirmation of a purge: echoes what goes for good, and — because nothing undoes it —
 * asks to type the number of sessions (a count scales with what is at stake and cannot be typed by
 * habit the way "yes" can). Escape or "Keep them" cancels.
 */
function PurgeDialog({
  count,
  bytes,
  what,
  onCancel,
  onConfirm,
}: {
  count: number;
  bytes: number;
  /** "selected", "deleted more than 30 days ago". */
  what: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const [typed, setTyped] = useState("");
  const confirmed = typed.trim() === String(count);
  return (
    <Dialog
      role="alertdialog"
      class="dialog"
      labelledBy="purge-title"
      describedBy="purge-text"
      testId="purge-dialog"
      onEscape={onCancel}
      // The safe choice has focus: Enter right away keeps them.
      initialFocus="[data-testid='purge-cancel']"
    >
      <h2 id="purge-title">Delete forever?</h2>
      <p id="purge-text">
        <strong data-testid="purge-summary">
          {count} session{count === 1 ? "" : "s"}, <Bytes value={bytes} />
        </strong>{" "}
        {what} will be deleted for good, freeing that space. This cannot be undone.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (confirmed) onConfirm();
        }}
      >
        <label>
          Type <strong>{count}</strong> to confirm{" "}
          <input
            type="text"
            inputMode="numeric"
            autoComplete="off"
            data-testid="purge-typed"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <footer>
          <button type="button" data-testid="purge-cancel" onClick={onCancel}>
            Keep them
          </button>
          <button type="submit" class="danger" data-testid="purge-confirm" disabled={!confirmed}>
            Purge {count} forever
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
