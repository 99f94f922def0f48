// Growth over the last 7 or 30 days, with the forecast the server computes.
import { useEffect, useState } from "preact/hooks";
import type { GrowthResponse } from "../../../shared/api.js";
import type { ApiClient } from "../api/client.js";
import { GrowthChart } from "../charts/GrowthChart.js";

export function GrowthSection({ api, scannedAt }: { api: Pick<ApiClient, "growth">; scannedAt: string }) {
  const [days, setDays] = useState<7 | 30>(30);
  const [growth, setGrowth] = useState<GrowthResponse | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    api.growth(days).then(setGrowth, (e: Error) => setError(e.message));
  }, [api, days, scannedAt]);
  return (
    <section aria-labelledby="growth-title">
      <h2 id="growth-title">Growth</h2>
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
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {growth && growth.points.length > 0 ? (
        <GrowthChart growth={growth} />
      ) : (
        !error && <p class="empty">No history yet: each scan adds a point (at most one per hour).</p>
      )}
    </section>
  );
}
