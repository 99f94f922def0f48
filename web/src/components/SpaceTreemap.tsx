// Where the space goes: a treemap of namespaces; picking one drills into its largest sessions,
// and the breadcrumb leads back.
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { SummaryResponse } from "../../../shared/api.js";
import type { ApiClient } from "../api/client.js";
import { type Tile, Treemap } from "../charts/Treemap.js";

/** Sessions drawn in one namespace: the largest ones; the rest are too small to see. */
const DRILL_LIMIT = 300;

export function SpaceTreemap({ api, data }: { api: Pick<ApiClient, "sessions">; data: SummaryResponse }) {
  const [namespace, setNamespace] = useState<string | undefined>(undefined);
  const [sessionTiles, setSessionTiles] = useState<Tile[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const namespaceTiles = useMemo(
    () =>
      data.namespaces.map((n) => ({
        key: n.namespace,
        // The folder's own name fits in a tile; the tooltip and the table give the full path.
        label: n.namespace.slice(n.namespace.replace(/\/+$/, "").lastIndexOf("/") + 1) || n.namespace,
        title: n.namespace,
        bytes: n.totalBytes,
        count: n.sessionCount,
        lastUsedAt: n.lastUsedAt,
      })),
    [data],
  );
  useEffect(() => {
    if (namespace === undefined) return setSessionTiles(undefined);
    api.sessions({ namespace, sort: "size", limit: DRILL_LIMIT }).then(
      (table) =>
        setSessionTiles(
          table.rows.map((r) => ({
            key: r.id,
            label: r.name ?? r.path.slice(r.path.lastIndexOf("/") + 1),
            title: r.path,
            bytes: r.sizeBytes,
            count: 1,
            lastUsedAt: r.lastUsedAt,
          })),
        ),
      (e: Error) => setError(e.message),
    );
  }, [api, namespace, data]);
  const pick = useCallback((tile: Tile) => setNamespace(tile.key), []);

  return (
    <section aria-labelledby="space-title">
      <h2 id="space-title">Where the space goes</h2>
      <nav class="breadcrumb" aria-label="Treemap level" data-testid="treemap-breadcrumb">
        {namespace === undefined ? (
          <span aria-current="location">All namespaces</span>
        ) : (
          <>
            <button
              type="button"
              class="link"
              data-testid="treemap-back"
              onClick={() => setNamespace(undefined)}
            >
              All namespaces
            </button>{" "}
            › <span aria-current="location">{namespace}</span>
          </>
        )}
      </nav>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {namespace === undefined ? (
        <Treemap tiles={namespaceTiles} label="Disk used per namespace" onPick={pick} />
      ) : sessionTiles ? (
        <Treemap tiles={sessionTiles} label={`Largest sessions of ${namespace}`} />
      ) : (
        <p class="empty">Loading…</p>
      )}
    </section>
  );
}
