// Growth of the stores over 7 or 30 days (chart.js line): bytes on the left axis, in total or
// stacked by namespace (the largest ones and "other"). Points backfilled from creation times are
// estimates — drawn dashed and hollow, and said in the caption. The canvas is an image to assistive
// technology: the legend and the data table beside it carry the same numbers as text.
import {
  CategoryScale,
  Chart,
  type ChartDataset,
  type ChartOptions,
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
import { formatBytes, formatPercent } from "../../../shared/format.js";
import { axisBytes, byteStep } from "./byte-axis.js";
import { Bytes } from "../components/Bytes.js";
import { OTHER_COLOUR, PALETTE } from "./palette.js";

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
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: "short", day: "numeric" });

export type GrowthView = "total" | "namespace";

/** One line of the chart: its name, colour, values per point. */
interface Series {
  label: string;
  /** The full name (a namespace's path), for the legend's hover. */
  title: string;
  colour: string;
  values: number[];
}

/** What the chart draws for the view: the points' times and estimates, and one or more series. */
function seriesOf(growth: GrowthResponse, view: GrowthView) {
  if (view === "namespace" && growth.byNamespace) {
    const { namespaces, otherNamespaces, points } = growth.byNamespace;
    const series: Series[] = namespaces.map((name, i) => ({
      label: name,
      title: name,
      colour: PALETTE[i % PALETTE.length]!,
      values: points.map((p) => p.series[i]!),
    }));
    if (otherNamespaces > 0)
      series.push({
        label: `other (${otherNamespaces} namespaces)`,
        title: `${otherNamespaces} smaller namespaces together`,
        colour: OTHER_COLOUR,
        values: points.map((p) => p.series[namespaces.length]!),
      });
    return { times: points.map((p) => p.t), estimated: points.map((p) => !!p.estimated), series };
  }
  const points = growth.points;
  return {
    times: points.map((p) => p.t),
    estimated: points.map((p) => !!p.estimated),
    series: [{ label: "Disk used", title: "Disk used", colour: "", values: points.map((p) => p.bytes) }],
  };
}

export function GrowthChart({
  growth,
  view = "total",
  quotaBytes,
}: {
  growth: GrowthResponse;
  view?: GrowthView;
  /** The size quota: drawn as a dashed line across the chart, so the headroom is seen at once. */
  quotaBytes?: number | undefined;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { times, estimated, series } = seriesOf(growth, view);
  const stacked = view === "namespace";
  // A quota far above the line would flatten it to nothing: drawn only from a quarter of it, else said.
  const peak = Math.max(0, ...times.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)));
  const drawQuota = quotaBytes !== undefined && quotaBytes > 0 && peak >= quotaBytes / 4;
  // One chart per view, its data and options replaced in place as the series moves (a live look
  // every few seconds): no new canvas, no flash.
  const chart = useRef<{ view: GrowthView; chart: Chart<"line", number[], string> }>(undefined);
  useEffect(
    () => () => {
      chart.current?.chart.destroy();
      chart.current = undefined;
    },
    [],
  );
  useEffect(() => {
    const accent = cssVar("--accent");
    const muted = cssVar("--muted");
    const datasets: ChartDataset<"line", number[]>[] = series.map((s, i) => {
      const colour = s.colour || accent;
      return {
        label: s.label,
        data: s.values,
        borderColor: colour,
        backgroundColor: `${colour}${stacked ? "66" : "33"}`,
        // Stacked: each area fills down to the one below it.
        fill: stacked ? (i === 0 ? "origin" : "-1") : true,
        tension: 0.2,
        // Stacked, small points and thin lines: nine series of dots would hide the thin bands.
        pointRadius: stacked ? 1.5 : 3,
        borderWidth: stacked ? 1.5 : 3,
        pointBorderColor: colour,
        pointBackgroundColor: (ctx) => (estimated[ctx.dataIndex] ? "transparent" : colour),
        segment: { borderDash: (ctx) => (estimated[ctx.p1DataIndex] ? [5, 4] : undefined) },
      };
    });
    if (drawQuota)
      datasets.push({
        label: `Quota ${formatBytes(quotaBytes)}`,
        data: times.map(() => quotaBytes),
        borderColor: cssVar("--level-critical") || muted,
        borderDash: [8, 5],
        borderWidth: 2,
        pointRadius: 0,
        fill: false,
        // A stack of its own: stacked by namespace, the line is not added on top of the areas.
        stack: "quota",
      });
    const data = { labels: times.map(day), datasets };
    const options: ChartOptions<"line"> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: stacked ? { mode: "index", intersect: false } : { mode: "nearest", intersect: true },
      scales: {
        y: {
          stacked,
          beginAtZero: true,
          // Round binary steps (byte-axis.ts): chart.js's own are decimal, 4.77 and 9.54 MiB.
          ticks: {
            color: muted,
            stepSize: byteStep(drawQuota ? Math.max(peak, quotaBytes ?? 0) : peak),
            callback: (v) => axisBytes(Number(v)),
          },
        },
        x: { ticks: { color: muted, maxTicksLimit: 10 } },
      },
      plugins: {
        // Stacked, the HTML legend below names every series (the canvas one cannot be read aloud).
        legend: { display: !stacked, labels: { color: muted } },
        tooltip: {
          callbacks: {
            label: (item) =>
              item.datasetIndex >= series.length
                ? `Quota: ${formatBytes(quotaBytes ?? 0)}`
                : stacked
                  ? `${series[item.datasetIndex]!.label}: ${formatBytes(series[item.datasetIndex]!.values[item.dataIndex] ?? 0)}${
                      estimated[item.dataIndex] ? " (estimated)" : ""
                    }`
                  : `${formatBytes(growth.points[item.dataIndex]!.bytes)} in ${growth.points[item.dataIndex]!.count} sessions${
                      estimated[item.dataIndex] ? " (estimated)" : ""
                    }`,
          },
        },
      },
    };
    if (chart.current?.view === view) {
      chart.current.chart.data = data;
      chart.current.chart.options = options;
      chart.current.chart.update("none");
      return;
    }
    chart.current?.chart.destroy();
    chart.current = { view, chart: new Chart(canvas.current!, { type: "line", data, options }) };
  }, [growth, view, quotaBytes, drawQuota]);
  const anyEstimated = estimated.some(Boolean);
  const last = times.length - 1;
  const what = stacked ? `stacked by namespace, ${series.length} series` : "in total";
  return (
    <figure class="growth">
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Disk used over the last ${growth.days} days, ${what}, ${times.length} points${drawQuota ? `, against the ${formatBytes(quotaBytes)} quota` : ""}`}
        />
      </div>
      {stacked && (
        <ul
          class="legend"
          data-testid="growth-legend"
          aria-label="Namespaces, with their size at the latest point"
        >
          {series.map((s) => (
            <li
              key={s.label}
              data-testid="growth-legend-item"
              data-name={s.label}
              data-bytes={s.values[last] ?? 0}
              title={s.title}
            >
              <span class="swatch" style={{ background: s.colour }} aria-hidden="true" />
              <span class="path">{s.label}</span> <Bytes value={s.values[last] ?? 0} />
            </li>
          ))}
        </ul>
      )}
      {quotaBytes !== undefined && quotaBytes > 0 && !drawQuota && (
        <p class="hint" data-testid="growth-quota-far">
          The {formatBytes(quotaBytes)} quota is far above this ({formatPercent(peak / quotaBytes)} at most):
          not drawn, so the growth stays readable.
        </p>
      )}
      {anyEstimated && (
        <figcaption class="hint" data-testid="growth-estimated">
          Dashed, hollow points are estimated from the sessions' creation times (sessions deleted before the
          first scan cannot be known).
        </figcaption>
      )}
      {stacked && (
        <details class="growth-data">
          <summary>The numbers as a table</summary>
          <div class="table-scroll">
            <table class="data" data-testid="growth-table">
              <caption class="hint">One row per day; the last column is the total.</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  {series.map((s) => (
                    <th key={s.label} scope="col" class="num" title={s.title}>
                      {s.label}
                    </th>
                  ))}
                  <th scope="col" class="num">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {times.map((t, i) => (
                  <tr key={t}>
                    <th scope="row">
                      {day(t)}
                      {estimated[i] ? " (estimated)" : ""}
                    </th>
                    {series.map((s) => (
                      <td key={s.label} class="num">
                        <Bytes value={s.values[i]!} />
                      </td>
                    ))}
                    <td class="num">
                      <Bytes value={series.reduce((sum, s) => sum + s.values[i]!, 0)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}
