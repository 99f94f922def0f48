// A file whose removal alone keeps a session from its agent's own cleanup (Gemini CLI's empty copy
// of a resumed chat): said under the cleanup's warning, with "Remove the copy…". After a
// confirmation that says what goes and what it saves, the copy goes to the trash like any session
// (restorable from the Trash page), by its own id — never the chat.
import { useState } from "preact/hooks";
import type { ExternalSweep } from "../../../shared/plan.js";
import type { SoftDeleteResult } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { Bytes } from "./Bytes.js";
import { Dialog } from "./Dialog.js";

export type Rescue = NonNullable<ExternalSweep["rescues"]>[number];

/** What the removal did, in one sentence: moved (and what that keeps), or why not. */
export function rescueOutcome(rescue: Rescue, result: SoftDeleteResult): string {
  if (result.moved.some((m) => m.id === rescue.id))
    return `Moved the empty copy to the trash: Gemini CLI keeps “${rescue.title}”. It can be restored from the Trash page.`;
  const why = result.skipped.find((s) => s.id === rescue.id)?.reason ?? result.refused ?? "nothing was moved";
  return `The empty copy was not removed: ${why}.`;
}

/** One rescue: its sentence and its button; once pressed, the confirmation. */
export function SweepRescue({
  api,
  rescue,
  onDone,
}: {
  api: Pick<ApiClient, "deleteSessions">;
  rescue: Rescue;
  /** What the removal did, said by the caller (the warning may go once the chat is safe). */
  onDone: (outcome: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  async function remove() {
    setBusy(true);
    try {
      const result = await api.deleteSessions({
        items: [{ id: rescue.id, fingerprint: rescue.fingerprint }],
        dryRun: false,
      });
      setAsking(false);
      onDone(rescueOutcome(rescue, result));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li data-testid="sweep-rescue" data-id={rescue.id}>
      <span>{rescue.message}.</span>{" "}
      <button type="button" data-testid="rescue-remove" onClick={() => setAsking(true)}>
        Remove the copy…
      </button>
      {asking && (
        <Dialog
          class="dialog narrow"
          labelledBy="rescue-title"
          describedBy="rescue-text"
          testId="rescue-dialog"
          onEscape={() => setAsking(false)}
          initialFocus="[data-testid='rescue-cancel']"
        >
          <h2 id="rescue-title">Remove the empty copy?</h2>
          <p id="rescue-text">
            <code class="path">{rescue.path}</code> (<Bytes value={rescue.sizeBytes} />) holds no
            conversation: a resume left it beside the chat “{rescue.title}”. While it is there, Gemini CLI
            deletes it and the chat with it the next time it starts in the project.
          </p>
          <p>It goes to the trash like a session (you can restore it); the chat stays where it is.</p>
          {error && (
            <div class="banner error" role="alert">
              {error}
            </div>
          )}
          <footer>
            <button type="button" data-testid="rescue-cancel" onClick={() => setAsking(false)}>
              Cancel
            </button>
            <button
              type="button"
              class="primary"
              data-testid="rescue-confirm"
              disabled={busy}
              onClick={() => void remove()}
            >
              Remove the copy
            </button>
          </footer>
        </Dialog>
      )}
    </li>
  );
}
