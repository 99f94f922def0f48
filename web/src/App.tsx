// The dashboard shell: header, banners (demo store, errors), and the overview.
import { useEffect } from "preact/hooks";
import { OverviewPage } from "./pages/OverviewPage.js";
import type { SummaryStore } from "./state/summary-store.js";

export function App({ store }: { store: SummaryStore }) {
  useEffect(() => {
    void store.refresh();
  }, [store]);
  const data = store.data.value;
  return (
    <>
      <header class="top">
        <h1>Session Retention</h1>
        {data && (
          <p class="stores" data-testid="stores">
            {data.stores.map((s) => s.root).join(" · ")}
          </p>
        )}
        <button type="button" onClick={() => void store.refresh()} disabled={store.loading.value}>
          {store.loading.value ? "Scanning…" : "Rescan"}
        </button>
      </header>
      <main>
        {store.error.value && (
          <div class="banner error" role="alert" data-testid="error-banner">
            {store.error.value}
          </div>
        )}
        {data?.source.kind === "demo" && (
          <div class="banner info" role="status" data-testid="demo-banner">
            <strong>Demo data.</strong> {data.source.note}
          </div>
        )}
        {data ? (
          <OverviewPage data={data} />
        ) : (
          !store.error.value && <p class="empty">Scanning your sessions…</p>
        )}
      </main>
    </>
  );
}
