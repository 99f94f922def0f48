// The dashboard shell: header with the page tabs, banners (demo store, errors), the current page,
// and the clean wizard over it. It keeps the live stream open while the page is there: "Live" in
// the header while the server watches the stores, its message when it can only rescan them.
import { useEffect, useState } from "preact/hooks";
import { formatBytes } from "../../shared/format.js";
import { describeFinding } from "../../shared/scan-summary.js";
import { NO_FILTER } from "../../shared/session-filter.js";
import type { ApiClient } from "./api/client.js";
import type { OperationStatus } from "../../shared/api.js";
import { type CleanSource, CleanWizard } from "./components/CleanWizard.js";
import { Notices } from "./components/Notices.js";
import { ResumedDeletion } from "./components/ResumedDeletion.js";
import { ScanButton } from "./components/ScanButton.js";
import { SessionDrawer } from "./components/SessionDrawer.js";
import { OverviewPage } from "./pages/OverviewPage.js";
import { ActivityPage } from "./pages/ActivityPage.js";
import { PolicyPage } from "./pages/PolicyPage.js";
import { SessionsPage } from "./pages/SessionsPage.js";
import { TrashPage } from "./pages/TrashPage.js";
import { currentPage, go, PAGES, type Page } from "./router.js";
import type { LiveFeed } from "./state/live.js";
import type { SessionFollow } from "./state/session-follow.js";
import type { SessionsStore } from "./state/sessions-store.js";
import type { SummaryStore } from "./state/summary-store.js";

const PAGE_TITLES: Record<Page, string> = {
  overview: "Overview",
  sessions: "Sessions",
  trash: "Trash",
  policy: "Policy",
  activity: "Activity",
};

export function App({
  api,
  store,
  sessions,
  live,
  follow,
}: {
  api: ApiClient;
  store: SummaryStore;
  sessions: SessionsStore;
  live: LiveFeed;
  follow: SessionFollow;
}) {
  useEffect(() => {
    void store.refresh();
  }, [store]);
  useEffect(() => live.start(), [live]);
  const watch = live.watch.value;
  const [cleaning, setCleaning] = useState<CleanSource | undefined>(undefined);
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  useEffect(() => follow.follow(openId), [follow, openId]);
  /** The page tabs on a narrow screen, where they fold behind the menu button. */
  const [menuOpen, setMenuOpen] = useState(false);
  /** A deletion the server still runs, or whose result was not dismissed: the page was reloaded or left. */
  const [resumed, setResumed] = useState<Exclude<OperationStatus, { state: "none" }> | undefined>();
  useEffect(() => {
    api.operation().then(
      (status) => status.state !== "none" && setResumed(status),
      () => {}, // the summary's own request says when the server is not reachable
    );
  }, [api]);
  const data = store.data.value;
  const page = currentPage.value;
  const now = data ? new Date(data.scannedAt) : new Date();
  /** After anything moved: the summary and the table look again. */
  const reload = () => {
    void store.refresh();
    void sessions.load();
  };
  /** Sessions moved or put back: out of the selection, and the table and summary look again. */
  const moved = (ids: string[]) => {
    const gone = new Set(ids);
    sessions.selected.value = new Set([...sessions.selected.value].filter((id) => !gone.has(id)));
    reload();
  };
  const readOnly = data?.policy.readOnly ?? true;
  return (
    <>
      {page === "sessions" && (
        // The table holds many rows: the selection's actions are one Tab and Enter away.
        // The address keeps its page: the link moves focus itself instead of changing the fragment.
        <a
          class="skip-link"
          href="#selection-bar"
          data-testid="skip-to-selection"
          onClick={(e) => {
            e.preventDefault();
            document.getElementById("selection-bar")?.focus();
          }}
        >
          Skip to the selection actions
        </a>
      )}
      <header class="top">
        <h1>Session Retention</h1>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="page-tabs"
          data-testid="menu-toggle"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav aria-label="Pages" id="page-tabs" class={menuOpen ? "open" : ""}>
          {PAGES.map((p) => (
            <a
              key={p}
              href={`#/${p}`}
              aria-current={p === page ? "page" : undefined}
              data-testid={`nav-${p}`}
              onClick={() => setMenuOpen(false)}
            >
              {PAGE_TITLES[p]}
            </a>
          ))}
        </nav>
        {data && (
          <p class="stores" data-testid="stores">
            {data.stores.map((s) => s.root).join(" · ")}
          </p>
        )}
        {watch?.mode === "watching" && (
          <span class="live" data-testid="live" title="The numbers follow the stores as agents write">
            <span class="live-dot" aria-hidden="true" />
            Live
          </span>
        )}
        <ScanButton store={store} onScanned={() => void sessions.load()} />
      </header>
      <main>
        {store.error.value && (
          <div class="banner error" role="alert" data-testid="error-banner">
            {store.error.value}
          </div>
        )}
        {live.trouble.value?.kind === "refused" && (
          <div class="banner error" role="alert" data-testid="live-refused">
            {live.trouble.value.message}
          </div>
        )}
        {live.trouble.value?.kind === "lost" && (
          <div class="banner info" role="status" data-testid="live-lost">
            The connection to the dashboard's server is lost (stopped, or restarting?): trying again. What
            this page shows does not follow the stores meanwhile.
          </div>
        )}
        {watch?.mode === "rescanning" && (
          <div class="banner info" role="status" data-testid="watch-banner">
            {watch.message ??
              "The server cannot watch the stores, so it rescans them instead: changes show with a delay."}
          </div>
        )}
        {data?.source.kind === "demo" && (
          <div class="banner info" role="status" data-testid="demo-banner">
            <strong>Demo data.</strong> {data.source.note}
          </div>
        )}
        {data?.policy.source === "invalid" && (
          <div class="banner error" role="alert" data-testid="config-banner">
            <strong>Invalid config — read-only.</strong> Sessions are shown, nothing can be deleted until{" "}
            <code>{data.policy.configPath}</code> is fixed:
            <ul>
              {data.policy.problems.map((p) => (
                <li key={`${p.path}:${p.message}`}>
                  <code>{p.path}</code>: {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {/* A store where nothing is a session: the wrong folder, probably; said in full. */}
        {data?.findings
          .filter((f) => f.notSessions > 0 && f.sessions === 0)
          .map((f) => (
            <div
              key={`${f.store.kind}:${f.store.root}`}
              class="banner error"
              role="alert"
              data-testid="not-sessions-banner"
            >
              {describeFinding(f, formatBytes)}
            </div>
          ))}
        {/* The other notes fold into one line; the overview puts it under its headline. */}
        {data && page !== "overview" && <Notices look={data} />}
        {page === "overview" &&
          (data ? (
            <OverviewPage
              api={api}
              data={data}
              refreshKey={store.settled.value}
              planKey={store.planSettled.value}
              onChanged={reload}
              onReview={() => setCleaning({ kind: "policy" })}
              onOpenNamespace={(namespace) => {
                // Only the namespace: a text or status filter left from before would hide some of its sessions.
                sessions.filters.value = { ...NO_FILTER, namespace };
                go("sessions");
              }}
              onOpenSession={setOpenId}
              onOpenTrash={() => go("trash")}
              actions={(urgent) => (
                <p class="actions">
                  <button
                    type="button"
                    class={urgent ? "primary" : undefined}
                    data-testid="clean-policy"
                    disabled={readOnly}
                    onClick={() => setCleaning({ kind: "policy" })}
                  >
                    Clean by policy…
                  </button>{" "}
                  <button type="button" onClick={() => go("sessions")}>
                    Choose sessions…
                  </button>
                </p>
              )}
            />
          ) : (
            !store.error.value && <p class="empty">Scanning your sessions…</p>
          ))}
        {page === "sessions" && (
          <SessionsPage store={sessions} now={now} onClean={setCleaning} onOpen={setOpenId} />
        )}
        {page === "trash" && <TrashPage api={api} now={now} onChanged={reload} />}
        {page === "policy" && <PolicyPage api={api} sessions={sessions} onSaved={reload} />}
        {page === "activity" && <ActivityPage api={api} now={now} />}
      </main>
      {openId && (
        <SessionDrawer
          api={api}
          id={openId}
          now={now}
          changed={follow.changed.value}
          // Only once the follow is of this session (it moves after the render that opened it).
          gone={follow.gone.value && follow.followed.value === openId}
          onOpen={setOpenId}
          onClose={() => setOpenId(undefined)}
          onChanged={() => void sessions.load()}
          onSelect={(ids) => {
            sessions.selected.value = new Set([...sessions.selected.value, ...ids]);
            go("sessions");
          }}
        />
      )}
      {cleaning && (
        <CleanWizard
          api={api}
          source={cleaning}
          onOpen={setOpenId}
          onMoved={moved}
          onClose={(changed) => {
            setCleaning(undefined);
            if (changed) {
              sessions.selected.value = new Set();
              reload();
            }
          }}
        />
      )}
      {resumed && !cleaning && (
        <ResumedDeletion api={api} found={resumed} onMoved={moved} onClose={() => setResumed(undefined)} />
      )}
    </>
  );
}
