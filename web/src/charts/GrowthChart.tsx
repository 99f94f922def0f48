// Growth of the stores over 7 or 30 days (chart.js line): bytes on the left axis. Points
// backfilled from creation times are estimates — drawn dashed and hollow, and said in the legend.
import {
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "preact/hooks";
import type { GrowthResponse } from "../../../shared/api.js";
import { formatBytes } from "../../../shared/format.js";

Chart.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  CategoryScale,
  Filler,
  Legend,
  Tooltip,
);

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function GrowthChart({ growth }: { growth: GrowthResponse }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const points = growth.points;
    const estimated = points.map((p) => !!p.estimated);
    const accent = cssVar("--accent");
    const muted = cssVar("--muted");
    const chart = new Chart(canvas.current!, {
      type: "line",
      data: {
        labels: points.map((p) =>
          new Date(p.t).toLocaleDateString(undefined, { month: "short", day: "numeric" }),
        ),
        datasets: [
          {
            label: "Disk used",
            data: points.map((p) => p.bytes),
            borderColor: accent,
            backgroundColor: `${accent}33`,
            fill: true,
            tension: 0.2,
            pointRadius: 3,
            pointBackgroundColor: (ctx) => (estimated[ctx.dataIndex] ? "transparent" : accent),
            segment: { borderDash: (ctx) => (estimated[ctx.p1DataIndex] ? [5, 4] : undefined) },
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          y: { beginAtZero: true, ticks: { color: muted, callback: (v) => formatBytes(Number(v)) } },
          x: { ticks: { color: muted, maxTicksLimit: 10 } },
        },
        plugins: {
          legend: { labels: { color: muted } },
          tooltip: {
            callbacks: {
              label: (item) =>
                `${formatBytes(points[item.dataIndex]!.bytes)} in ${points[item.dataIndex]!.count} sessions${
                  estimated[item.dataIndex] ? " (estimated)" : ""
                }`,
            },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [growth]);
  const anyEstimated = growth.points.some((p) => p.estimated);
  return (
    <figure class="growth">
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Disk used over the last ${growth.days} days, ${growth.points.length} points`}
        />
      </div>
      {anyEstimated && (
        <figcaption class="hint" data-testid="growth-estimated">
          Dashed, hollow points are estimated from the sessions' creation times (sessions deleted before the
          first scan cannot be known).
        </figcaption>
      )}
    </figure>
  );
}
