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
        <button
          type="button"
          onClick={() => void store.refresh({ rescan: true })}
          disabled={store.loading.value}
        >
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
        {data ? (
          <OverviewPage data={data} />
        ) : (
          !store.error.value && <p class="empty">Scanning your sessions…</p>
        )}
      </main>
    </>
  );
}
