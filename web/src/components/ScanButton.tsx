// Rescan, with a progress bar driven by the server's progress stream (files and bytes read).
import type { SummaryStore } from "../state/summary-store.js";
import { Bytes } from "./Bytes.js";

export function ScanButton({ store, onScanned }: { store: SummaryStore; onScanned: () => void }) {
  const progress = store.progress.value;
  const ratio = progress && progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : 0;
  return (
    <div class="scan">
      {progress && (
        <div class="scan-progress" data-testid="scan-progress">
          <progress
            max={1}
            value={progress.phase === "walking" ? undefined : ratio}
            aria-label="Scan progress"
          />
          <span class="hint">
            {progress.phase === "walking" ? (
              "finding sessions…"
            ) : (
              <>
                {progress.filesDone.toLocaleString("en-US")} / {progress.filesTotal.toLocaleString("en-US")}{" "}
                files · <Bytes value={progress.bytesDone} /> of <Bytes value={progress.bytesTotal} />
              </>
            )}
          </span>
        </div>
      )}
      <button
        type="button"
        class="primary"
        data-testid="rescan"
        disabled={store.loading.value}
        onClick={() => void store.refresh({ rescan: true }).then(onScanned)}
      >
        {store.loading.value ? "Scanning…" : "Rescan"}
      </button>
    </div>
  );
}
