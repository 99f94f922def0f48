// A squarified treemap (chart.js + chartjs-chart-treemap): area = bytes. Tiles can be picked
// (drill down) and highlighted (what a cleanup would remove). The canvas is an image to assistive
// technology; the tables beside it carry the same numbers as text.
import { Chart, Tooltip } from "chart.js";
import { TreemapController, TreemapElement } from "chartjs-chart-treemap";
import { useEffect, useRef } from "preact/hooks";
import { formatBytes } from "../../../shared/format.js";
import { PALETTE } from "./palette.js";

Chart.register(TreemapController, TreemapElement, Tooltip);

export interface Tile {
  key: string;
  label: string;
  /** The tooltip's heading when the label is shortened (a full path). */
  title?: string;
  bytes: number;
  count: number;
  lastUsedAt?: string;
  highlight?: boolean;
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function Treemap({
  tiles,
  label,
  onPick,
}: {
  tiles: readonly Tile[];
  /** What the picture shows, for screen readers. */
  label: string;
  onPick?: (tile: Tile) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const danger = cssVar("--level-critical");
    const text = "#fff";
    const tree = tiles.filter((t) => t.bytes > 0).map((t) => ({ ...t }));
    // Options are also resolved for the dataset as a whole, where there is no data point.
    const tileOf = (raw: unknown) => (raw as { _data?: Tile } | undefined)?._data;
    const chart = new Chart(canvas.current!, {
      type: "treemap",
      data: {
        datasets: [
          {
            tree: tree as unknown as Record<string, unknown>[],
            key: "bytes",
            data: [],
            borderWidth: 1,
            spacing: 1,
            borderColor: cssVar("--panel"),
            backgroundColor: (ctx) =>
              tileOf(ctx.raw)?.highlight ? danger : PALETTE[(ctx.dataIndex ?? 0) % PALETTE.length]!,
            labels: {
              display: true,
              color: text,
              overflow: "hidden",
              formatter: (ctx) => {
                const tile = tileOf(ctx.raw);
                return tile ? [tile.label, formatBytes(tile.bytes)] : "";
              },
            },
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        onClick: (_event, elements) => {
          const element = elements[0];
          if (!element || !onPick) return;
          const tile = tileOf((chart.data.datasets[0]!.data as unknown[])[element.index]);
          if (tile) onPick(tiles.find((t) => t.key === tile.key)!);
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => {
                const tile = tileOf(items[0]?.raw);
                return tile?.title ?? tile?.label ?? "";
              },
              label: (item) => {
                const tile = tileOf(item.raw);
                if (!tile) return "";
                const lines = [
                  `${formatBytes(tile.bytes)} in ${tile.count} session${tile.count === 1 ? "" : "s"}`,
                ];
                if (tile.lastUsedAt) lines.push(`last used ${new Date(tile.lastUsedAt).toLocaleString()}`);
                return lines;
              },
            },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [tiles, onPick]);
  return (
    <div
      class="treemap"
      data-testid="treemap"
      // What is highlighted, as numbers a test (or a curious user) can read; the canvas has none.
      data-highlight-bytes={tiles.reduce((sum, t) => sum + (t.highlight ? t.bytes : 0), 0)}
    >
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
