// The detail drawer: everything the API knows about one session — its record, what the file holds
// (entry types, branches, compactions, the first user message), why it is kept, its lineage, its
// family — and pin/unpin, and selecting its whole family. Lineage links open the related session in
// the same drawer. It follows the live look: read again when a look changes its session (see
// state/session-follow.ts), and kept, with a notice, when its file goes.
import { useEffect, useRef, useState } from "preact/hooks";
import { counted } from "../../../shared/format.js";
import type { SessionDetailResponse } from "../../../shared/api.js";
import { AGENT_LABELS } from "../../../shared/session-record.js";
import { sessionTitle } from "../../../shared/session-title.js";
import type { ApiClient } from "../api/client.js";
import { Bytes } from "./Bytes.js";
import { RelativeTime } from "./RelativeTime.js";
import { Dialog } from "./Dialog.js";
import { SessionName } from "./SessionName.js";

export function SessionDrawer({
  api,
  id,
  now,
  changed,
  gone,
  onOpen,
  onClose,
  onChanged,
  onSelect,
}: {
  api: Pick<ApiClient, "session" | "protect">;
  id: string;
  now: Date;
  /** Moves when a live look changed this session: it is read again. */
  changed: number;
  /** A live look says this session's file went. */
  gone: boolean;
  /** Opens another session (a lineage link). */
  onOpen: (id: string) => void;
  onClose: () => void;
  /** A pin changed: the table looks again. */
  onChanged: () => void;
  /** Adds these sessions to the sessions table's selection (a whole family). */
  onSelect: (ids: readonly string[]) => void;
}) {
  const [detail, setDetail] = useState<SessionDetailResponse | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  /** The latest read asked for: an older answer (another session's, or from before a change) is dropped. */
  const asked = useRef(0);
  const load = () => {
    const ask = ++asked.current;
    return api.session(id).then(
      (d) => {
        if (ask !== asked.current) return;
        setDetail(d);
        setError(undefined);
      },
      (e: Error) => ask === asked.current && setError(e.message),
    );
  };
  useEffect(() => {
    setDetail(undefined);
    void load();
  }, [id]);
  // Read again when the session changed; what is shown stays until the new answer replaces it.
  const readFor = useRef(changed);
  useEffect(() => {
    if (changed === readFor.current) return;
    readFor.current = changed;
    if (!gone) void load();
  }, [changed]);

  async function pin(on: boolean) {
    try {
      await api.protect([id], on);
      onChanged();
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const s = detail?.session;
  const pinned = detail?.kept?.reason === "pinned";
  // The file's own first message where it was read; else the record's, when the title is another line.
  const firstMessage =
    detail?.detail?.firstUserMessage ??
    (s?.firstMessage !== undefined && sessionTitle(s).title !== s.firstMessage ? s.firstMessage : undefined);
  return (
    <Dialog class="drawer" labelledBy="drawer-title" testId="drawer" overlay={false} onEscape={onClose}>
      {/* Not a second banner landmark: the drawer's own heading area. */}
      <header role="none">
        <h2 id="drawer-title" data-testid="drawer-title" data-source={s && sessionTitle(s).source}>
          {s ? sessionTitle(s).title : "Session"}
        </h2>
        <button type="button" aria-label="Close details" onClick={onClose}>
          ✕
        </button>
      </header>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {gone && (
        <div class="banner info" role="status" data-testid="drawer-gone">
          This session's file is no longer in its store: cleaned, or deleted or moved by something else. What
          follows is how it was.
        </div>
      )}
      {!s && !error && <p class="empty">Loading…</p>}
      {s && detail && (
        <>
          <p class="path" data-testid="drawer-path">
            {s.path}
          </p>
          {/* What keeps it, what the policy says, and pinning: about a session there, not one that went. */}
          {!gone && (
            <>
              {detail.kept ? (
                <p class="banner info" data-testid="drawer-kept">
                  Kept: <strong>{detail.kept.reason}</strong> — {detail.kept.detail}
                </p>
              ) : (
                <p class="hint">Not kept by anything: a policy or a selection may clean it.</p>
              )}
              {detail.verdict && (
                <p data-testid="drawer-verdict">
                  The policy now:{" "}
                  <span class={detail.verdict.clean ? "badge verdict clean" : "verdict kept"}>
                    {detail.verdict.text}
                  </span>
                </p>
              )}
              <p>
                {pinned ? (
                  <button type="button" data-testid="drawer-unpin" onClick={() => void pin(false)}>
                    Unpin
                  </button>
                ) : (
                  <button type="button" data-testid="drawer-pin" onClick={() => void pin(true)}>
                    Pin (never clean)
                  </button>
                )}
              </p>
            </>
          )}
          <dl class="facts">
            <dt>Namespace</dt>
            <dd class="path">{s.namespace}</dd>
            <dt>Agent</dt>
            <dd>
              {AGENT_LABELS[s.store.kind]} · <span class="path">{s.store.root}</span>
            </dd>
            <dt>Size</dt>
            <dd data-testid="drawer-size" data-bytes={s.sizeBytes}>
              <Bytes value={s.sizeBytes} />
            </dd>
            <dt>Created</dt>
            <dd>
              <RelativeTime iso={s.createdAt} now={now} /> · {new Date(s.createdAt).toLocaleString()}
            </dd>
            <dt>Modified</dt>
            <dd>
              <RelativeTime iso={s.modifiedAt} now={now} /> · {new Date(s.modifiedAt).toLocaleString()}
            </dd>
            <dt>Last used</dt>
            <dd>
              <RelativeTime iso={s.lastUsedAt} now={now} />
            </dd>
            {s.archivedAt && (
              <>
                <dt>Archived</dt>
                <dd data-testid="drawer-archived">
                  <RelativeTime iso={s.archivedAt} now={now} /> in {AGENT_LABELS[s.store.kind]}, whose session
                  list hides it until you prompt in it again
                </dd>
              </>
            )}
            <dt>Entries</dt>
            <dd data-testid="drawer-entries">
              {s.messageCount} ({s.messageCounts.user} user, {s.messageCounts.assistant} assistant,{" "}
              {s.messageCounts.toolResult} tool results, {s.messageCounts.other} other)
            </dd>
            {detail.detail && (
              <>
                <dt>Entry types</dt>
                <dd>
                  {Object.entries(detail.detail.entryTypes)
                    .map(([type, n]) => `${type} ${n}`)
                    .join(" · ")}
                </dd>
                <dt>Branches</dt>
                <dd>
                  {counted(detail.detail.leaves, "leaf", "leaves")},{" "}
                  {counted(detail.detail.branchPoints, "branch point")},{" "}
                  {counted(detail.detail.compactions, "compaction")}
                </dd>
              </>
            )}
            {s.tags && s.tags.length > 0 && (
              <>
                <dt>Tags</dt>
                <dd>{s.tags.join(", ")}</dd>
              </>
            )}
            {s.summary && (
              <>
                <dt>Summary</dt>
                <dd>{s.summary}</dd>
              </>
            )}
          </dl>
          {firstMessage && (
            <>
              <h3>First message</h3>
              <blockquote class="first-message" data-testid="drawer-first-message">
                {firstMessage}
              </blockquote>
            </>
          )}
          {s.warnings.length > 0 && (
            <>
              <h3>Warnings</h3>
              <ul>
                {s.warnings.map((w) => (
                  <li key={w.code + w.message}>{w.message}</li>
                ))}
              </ul>
            </>
          )}
          {detail.family && (
            <>
              <h3>Family</h3>
              <p data-testid="drawer-family">
                {detail.family.sessions.length} sessions —{" "}
                <Bytes value={detail.family.sessions.reduce((t, m) => t + m.sizeBytes, 0)} /> — a thread and
                the forks made from it, each a session of its own; a fork may read its history from the one it
                came from, which then goes only with it.
              </p>
              <p>
                <button
                  type="button"
                  data-testid="drawer-select-family"
                  disabled={gone || detail.family.selectable.length === 0}
                  onClick={() => onSelect(detail.family!.selectable)}
                >
                  Select the family ({detail.family.selectable.length} of {detail.family.sessions.length})
                </button>
                {detail.family.selectable.length < detail.family.sessions.length && (
                  <span class="hint" data-testid="drawer-family-kept">
                    {" "}
                    {detail.family.sessions.length - detail.family.selectable.length} kept (live, pinned,
                    protected or recent), and what they read from with them
                  </span>
                )}
              </p>
            </>
          )}
          {(detail.lineage.parent || detail.lineage.forks.length > 0) && (
            <>
              <h3>Lineage</h3>
              <ul data-testid="drawer-lineage">
                {detail.lineage.parent && (
                  <li>
                    forked from{" "}
                    <button
                      type="button"
                      class="link"
                      title={detail.lineage.parent.path}
                      onClick={() => onOpen(detail.lineage.parent!.id)}
                    >
                      <SessionName session={detail.lineage.parent} title={detail.lineage.parent.title} />
                    </button>
                  </li>
                )}
                {detail.lineage.forks.map((f) => (
                  <li key={f.id}>
                    fork:{" "}
                    <button type="button" class="link" title={f.path} onClick={() => onOpen(f.id)}>
                      <SessionName session={f} title={f.title} />
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Dialog>
  );
}
