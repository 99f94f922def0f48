// Growth over the last 7 or 30 days, in total or stacked by namespace, with the rate per week and the
// size quota drawn as a line. One request brings both views, so switching between them is instant.
// The latest point follows the live look between two requests (live-growth.ts).
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GrowthResponse, SummaryResponse } from "../../../shared/api.js";
import type { ApiClient } from "../api/client.js";
import { GrowthChart, type GrowthView } from "../charts/GrowthChart.js";
import { withLiveTotal } from "./live-growth.js";
import { describeRate, weeklyGrowth } from "./overview-headline.js";

const VIEWS: Array<[GrowthView, string]> = [
  ["total", "Total"],
  ["namespace", "By namespace"],
];

export function GrowthSection({
  api,
  look,
  refreshKey,
  quotaBytes,
  onGrowth,
}: {
  api: Pick<ApiClient, "growth">;
  /** The latest look: this hour's point shows its total. */
  look: Pick<SummaryResponse, "summary" | "namespaces">;
  /** Moves when the series is to be asked for again. */
  refreshKey: number;
  /** The size quota, drawn as a line on the chart. */
  quotaBytes?: number | undefined;
  /** Each series as shown, its latest point live (the overview's headline reads the 30-day one). */
  onGrowth?: (growth: GrowthResponse) => void;
}) {
  const [days, setDays] = useState<7 | 30>(30);
  const [view, setView] = useState<GrowthView>("total");
  const [served, setServed] = useState<GrowthResponse | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    api.growth(days, undefined, "namespace").then(setServed, (e: Error) => setError(e.message));
  }, [api, days, refreshKey]);
  const growth = useMemo(() => served && withLiveTotal(served, look, new Date()), [served, look]);
  useEffect(() => {
    if (growth) onGrowth?.(growth);
  }, [growth]);
  const points = view === "namespace" ? growth?.byNamespace?.points : growth?.points;
  const week = growth && weeklyGrowth(growth.points);
  return (
    <section class="growth-section" aria-labelledby="growth-title">
      <h2 id="growth-title">
        Growth{" "}
        {week !== undefined && (
          <span class="growth-rate" data-testid="growth-rate" data-bytes={week}>
            {describeRate(week)}
          </span>
        )}
      </h2>
      <div class="toolbar">
        <div class="toggle" role="group" aria-label="Period">
          {([7, 30] as const).map((d) => (
            <button
              key={d}
              type="button"
              aria-pressed={days === d}
              data-testid={`growth-${d}`}
              onClick={() => setDays(d)}
            >
              {d} days
            </button>
          ))}
        </div>
        <div class="toggle" role="group" aria-label="Show">
          {VIEWS.map(([v, label]) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              data-testid={`growth-view-${v}`}
              onClick={() => setView(v)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {growth && points && points.length > 0 ? (
        <GrowthChart growth={growth} view={view} quotaBytes={quotaBytes} />
      ) : (
        !error && (
          <p class="empty">
            {view === "namespace"
              ? "No history by namespace yet: each day's last scan keeps one."
              : "No history yet: each scan adds a point (at most one per hour)."}
          </p>
        )
      )}
    </section>
  );
}
