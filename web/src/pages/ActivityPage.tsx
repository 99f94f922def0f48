// Activity: the audit log (newest first, paged, filtered by action and actor) and report export —
// Markdown or JSON for the current plan, or for any past cleanup.
import { useEffect, useState } from "preact/hooks";
import type { AuditPage } from "../../../shared/api.js";
import { AUDIT_ACTIONS, type AuditEntry } from "../../../shared/audit.js";
import { counted } from "../../../shared/format.js";
import type { ApiClient, ReportFormat } from "../api/client.js";
import { Bytes } from "../components/Bytes.js";
import { RelativeTime } from "../components/RelativeTime.js";
import { SessionName } from "../components/SessionName.js";
import { outcomeText } from "./activity-outcome.js";

const PAGE_SIZE = 50;
const ACTORS = ["cli", "ui", "extension", "auto"] as const;
const CLEANUPS = new Set<AuditEntry["action"]>(["soft-delete", "auto-clean", "restore", "purge"]);

/** Saves text as a file through a temporary link (the report needs the token, so no plain href). */
function download(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ActivityPage({ api, now }: { api: Pick<ApiClient, "audit" | "report">; now: Date }) {
  const [offset, setOffset] = useState(0);
  const [action, setAction] = useState<AuditEntry["action"] | "">("");
  const [actor, setActor] = useState<AuditEntry["actor"] | "">("");
  const [page, setPage] = useState<AuditPage | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    api
      .audit({ offset, limit: PAGE_SIZE, ...(action ? { action } : {}), ...(actor ? { actor } : {}) })
      .then(setPage, (e: Error) => setError(e.message));
  }, [api, offset, action, actor]);

  async function exportReport(of: Parameters<ApiClient["report"]>[0], format: ReportFormat, name: string) {
    try {
      const text = await api.report(of, format);
      download(text, `${name}.${format}`, format === "md" ? "text/markdown" : "application/json");
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      <p class="actions">
        Report of the current plan:{" "}
        <button
          type="button"
          data-testid="report-plan-md"
          onClick={() => void exportReport({ plan: true }, "md", "plan")}
        >
          Markdown
        </button>{" "}
        <button type="button" onClick={() => void exportReport({ plan: true }, "json", "plan")}>
          JSON
        </button>
      </p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <select
            data-testid="audit-action"
            value={action}
            onChange={(e) => (setAction(e.currentTarget.value as typeof action), setOffset(0))}
          >
            <option value="">all</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who
          <select
            value={actor}
            onChange={(e) => (setActor(e.currentTarget.value as typeof actor), setOffset(0))}
          >
            <option value="">all</option>
            {ACTORS.map((a) => (
              <option key={a} value={a}>
                {a === "ui" ? "dashboard" : a}
              </option>
            ))}
          </select>
        </label>
        {page && <span class="count">{counted(page.total, "entry", "entries")}</span>}
      </form>
      {page && page.entries.length === 0 ? (
        <p class="empty" data-testid="audit-empty">
          Nothing recorded yet: cleanups, restores, purges, pins and policy changes appear here.
        </p>
      ) : (
        page && (
          <table class="data" data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col" class="num">
                  Sessions
                </th>
                <th scope="col" class="num">
                  Bytes
                </th>
                <th scope="col">Result</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e, i) => (
                <tr key={`${e.time}-${i}`} data-testid="audit-row" data-action={e.action}>
                  <td>
                    <RelativeTime iso={e.time} now={now} />
                  </td>
                  <td>{e.actor === "ui" ? "dashboard" : e.actor}</td>
                  <td>
                    {e.action}
                    {e.mode && <span class="hint"> ({e.mode})</span>}
                    {e.detail && <div class="hint">{e.detail}</div>}
                    {e.items.length > 0 && <AuditItems items={e.items} />}
                  </td>
                  <td class="num">{e.items.length}</td>
                  <td class="num">{e.bytes !== undefined ? <Bytes value={e.bytes} /> : ""}</td>
                  <td>{outcomeText(e)}</td>
                  <td>
                    {CLEANUPS.has(e.action) && e.operationId && (
                      <>
                        <button
                          type="button"
                          class="link"
                          data-testid="report-operation-md"
                          onClick={() =>
                            void exportReport(
                              { since: e.time, operation: e.operationId! },
                              "md",
                              `cleanup-${e.operationId}`,
                            )
                          }
                        >
                          md
                        </button>{" "}
                        ·{" "}
                        <button
                          type="button"
                          class="link"
                          onClick={() =>
                            void exportReport(
                              { since: e.time, operation: e.operationId! },
                              "json",
                              `cleanup-${e.operationId}`,
                            )
                          }
                        >
                          json
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {page && page.total > PAGE_SIZE && (
        <p class="actions">
          <button
            type="button"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          >
            Newer
          </button>{" "}
          <span class="hint">
            {offset + 1}–{Math.min(offset + PAGE_SIZE, page.total)} of {page.total}
          </span>{" "}
          <button
            type="button"
            disabled={offset + PAGE_SIZE >= page.total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            Older
          </button>
        </p>
      )}
    </section>
  );
}

/** How many sessions an entry names before "and N more": the row stays a row. */
const ITEMS_SHOWN = 3;

/**
 * The sessions an entry acted on, by the title recorded with them (older entries have none: their
 * file name), each with its full path on hover.
 */
function AuditItems({ items }: { items: AuditEntry["items"] }) {
  const named = items.filter((item) => item.title !== undefined || item.path !== "");
  if (named.length === 0) return null;
  return (
    <div class="audit-items" data-testid="audit-items">
      {named.slice(0, ITEMS_SHOWN).map((item, i) => (
        <span key={item.id} title={item.path}>
          {i > 0 && ", "}
          <SessionName session={{ path: item.path }} title={item.title} file={false} />
        </span>
      ))}
      {named.length > ITEMS_SHOWN && <span class="hint"> and {named.length - ITEMS_SHOWN} more</span>}
    </div>
  );
}
