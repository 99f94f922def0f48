// A warning that Claude Code's own cleanup will delete sessions, with its "Keep them" action: after
// a confirmation that says what keeping does, the sessions are kept. Keeping is not free of side
// effects — the transcript's file time becomes now, which also makes it the session
// `claude --continue` picks — so it is never one click.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { ApiClient } from "../api/client.js";
import { Bytes } from "./Bytes.js";
import { Dialog } from "./Dialog.js";

export interface SweptSessions {
  ids: readonly string[];
  bytes: number;
  /** Claude's `cleanupPeriodDays`, when known. */
  days?: number | undefined;
  /** The setting and where it comes from ("cleanupPeriodDays = 30 (Claude Code's default)"). */
  setting?: string | undefined;
  /** How many of them are pinned or protected here (Claude knows nothing of that). */
  keptByYou?: number | undefined;
}

const sessions = (n: number) => `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"}`;

/** Claude's period in words: "30 days", or the setting's name when the number is not known. */
const periodOf = (days: number | undefined) => (days === undefined ? "cleanupPeriodDays" : `${days} days`);

/** What a keep did, in one sentence. */
export function keptMessage(count: number, days?: number) {
  const them = count === 1 ? "it" : "them";
  return `Kept ${sessions(count)} from Claude Code's cleanup: it leaves ${them} alone for another ${periodOf(days)}.`;
}

/**
 * The warning box — `children` say what will be deleted — with the button at its end; once pressed,
 * the confirmation (outside the box: the box is a live region, and the dialog is not part of it).
 * `onKept` gets how many were kept.
 */
export function SweepWarning({
  api,
  swept,
  class: className = "",
  testId,
  onKept,
  children,
}: {
  api: Pick<ApiClient, "keep">;
  swept: SweptSessions;
  /** Added to the box's classes: its layout. */
  class?: string;
  testId: string;
  onKept: (count: number) => void;
  children: ComponentChildren;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  async function keep() {
    setBusy(true);
    try {
      const { kept } = await api.keep([...swept.ids]);
      setAsking(false);
      onKept(kept.length);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div class={`banner warn ${className}`} role="status" data-testid={testId}>
        {children}
        <p class="actions">
          <button type="button" data-testid="keep-them" onClick={() => setAsking(true)}>
            Keep them…
          </button>
        </p>
      </div>
      {asking && (
        <KeepDialog
          swept={swept}
          busy={busy}
          error={error}
          onCancel={() => {
            setAsking(false);
            setError(undefined);
          }}
          onConfirm={() => void keep()}
        />
      )}
    </>
  );
}

function KeepDialog({
  swept,
  busy,
  error,
  onCancel,
  onConfirm,
}: {
  swept: SweptSessions;
  busy: boolean;
  error: string | undefined;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const count = swept.ids.length;
  const period = periodOf(swept.days);
  return (
    <Dialog
      class="dialog narrow"
      labelledBy="keep-title"
      describedBy="keep-text"
      testId="keep-dialog"
      onEscape={onCancel}
      // Keeping changes which session `--continue` opens: the choice that changes nothing has focus.
      initialFocus="[data-testid='keep-cancel']"
    >
      <h2 id="keep-title">Keep them from Claude Code's cleanup?</h2>
      <p id="keep-text">
        <strong data-testid="keep-summary">
          {sessions(count)}, <Bytes value={swept.bytes} />
        </strong>{" "}
        will be deleted for good by Claude Code the next time it runs: their transcripts are older than{" "}
        {period} by file time, and Claude Code keeps no trash.
      </p>
      {swept.keptByYou !== undefined && swept.keptByYou > 0 && (
        <p data-testid="keep-kept-by-you">
          <strong>
            {swept.keptByYou.toLocaleString("en-US")} of them {swept.keptByYou === 1 ? "is" : "are"} pinned or
            protected here.
          </strong>{" "}
          Claude Code does not know that, and would delete {swept.keptByYou === 1 ? "it" : "them"} anyway.
        </p>
      )}
      <p>Keeping them sets each transcript's file time to now:</p>
      <ul class="spaced">
        <li>
          Claude Code leaves them alone for another {period} (one more <code>cleanupPeriodDays</code>), then
          deletes them unless they are used or kept again.
        </li>
        <li>
          Each becomes the most recent session of its project, so{" "}
          <code class="nowrap">claude --continue</code> there opens it instead of the session you last worked
          in.
        </li>
        <li>Nothing inside them changes; this dashboard still shows when each was last used.</li>
      </ul>
      <p>
        To keep sessions for good, raise <code>cleanupPeriodDays</code> in Claude Code's settings.
      </p>
      {swept.setting && <p class="hint">In effect now: {swept.setting}.</p>}
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      <footer>
        <button type="button" data-testid="keep-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="primary" data-testid="keep-confirm" disabled={busy} onClick={onConfirm}>
          Keep {sessions(count)}
        </button>
      </footer>
    </Dialog>
  );
}
