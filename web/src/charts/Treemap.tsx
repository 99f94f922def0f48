// A squarified treemap (chart.js + chartjs-chart-treemap): area = bytes. Tiles can be picked
// (drill down) and highlighted (what a cleanup would remove). The canvas is an image to assistive
// technology; the tables beside it carry the same numbers as text.
//
// Keyboard layer: a transparent button over each tile, in the chart's own order (largest first),
// one tab stop for all (arrows move, Home/End), Enter or Space picks as a click does. The mouse
// goes through them to the canvas (its tooltips stay); focus draws a ring around the tile.
import { Chart, Tooltip } from "chart.js";
import { TreemapController, TreemapElement } from "chartjs-chart-treemap";
import { useEffect, useRef, useState } from "preact/hooks";
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

/** A tile's place on the canvas, in CSS pixels. */
interface Box {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A tile was picked from the keyboard: the next level's first tile takes focus (not <body>). */
let focusNextLevel = false;

const describe = (tile: Tile) =>
  `${tile.title ?? tile.label}: ${formatBytes(tile.bytes)} in ${tile.count} session${tile.count === 1 ? "" : "s"}`;

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
  const [boxes, setBoxes] = useState<Box[]>([]);
  const [active, setActive] = useState(0);
  const layer = useRef<HTMLDivElement>(null);
  // The chart is made once; new tiles (a live look, another level) replace its tree in place, so
  // it is not drawn anew from nothing each time the numbers move. Its click reads the latest props.
  const chart = useRef<Chart<"treemap">>(undefined);
  const latest = useRef({ tiles, onPick });
  latest.current = { tiles, onPick };
  // Options are also resolved for the dataset as a whole, where there is no data point.
  const tileOf = (raw: unknown) => (raw as { _data?: Tile } | undefined)?._data;
  useEffect(() => {
    let last = "";
    const danger = cssVar("--level-critical");
    const text = "#fff";
    const made = new Chart(canvas.current!, {
      type: "treemap",
      data: {
        datasets: [
          {
            tree: [],
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
      // After each drawing (first, resize, new tiles): where the tiles are, for the keyboard layer.
      plugins: [
        {
          id: "tileBoxes",
          afterRender: (drawn) => {
            const data = drawn.data.datasets[0]!.data as unknown[];
            const next = drawn.getDatasetMeta(0).data.flatMap((element, i) => {
              const tile = tileOf(data[i]);
              const { x, y, width, height } = element.getProps(["x", "y", "width", "height"], true) as Record<
                string,
                number
              >;
              return tile ? [{ key: tile.key, x: x!, y: y!, width: width!, height: height! }] : [];
            });
            const serialized = JSON.stringify(next);
            if (serialized !== last) {
              last = serialized;
              setBoxes(next);
            }
          },
        },
      ],
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        onClick: (_event, elements) => {
          const element = elements[0];
          const { tiles: now, onPick: pick } = latest.current;
          if (!element || !pick) return;
          const tile = tileOf((made.data.datasets[0]!.data as unknown[])[element.index]);
          const picked = tile && now.find((t) => t.key === tile.key);
          if (picked) pick(picked);
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
    chart.current = made;
    return () => {
      made.destroy();
      chart.current = undefined;
    };
  }, []);
  useEffect(() => {
    const dataset = chart.current!.data.datasets[0]!;
    dataset.tree = tiles.filter((t) => t.bytes > 0).map((t) => ({ ...t })) as unknown as Record<
      string,
      unknown
    >[];
    chart.current!.update("none");
  }, [tiles]);

  useEffect(() => {
    if (!focusNextLevel || boxes.length === 0) return;
    focusNextLevel = false;
    setActive(0);
    layer.current?.querySelector<HTMLElement>("button")?.focus();
  }, [boxes]);

  const byKey = new Map(tiles.map((t) => [t.key, t]));
  const onKey = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: boxes.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(boxes.length - 1, target));
    setActive(next);
    layer.current?.querySelectorAll<HTMLElement>("button")[next]?.focus();
  };
  return (
    <div
      class="treemap"
      data-testid="treemap"
      // What is highlighted, as numbers a test (or a curious user) can read; the canvas has none.
      data-highlight-bytes={tiles.reduce((sum, t) => sum + (t.highlight ? t.bytes : 0), 0)}
    >
      <canvas ref={canvas} role="img" aria-label={label} />
      <div class="treemap-keys" ref={layer} role="group" aria-label={`${label}: tiles`}>
        {boxes.map((box, i) => {
          const tile = byKey.get(box.key);
          if (!tile) return null;
          return (
            <button
              key={box.key}
              type="button"
              class="treemap-tile"
              data-testid="treemap-tile"
              data-key={box.key}
              aria-label={describe(tile)}
              aria-keyshortcuts="ArrowLeft ArrowRight Home End Enter"
              tabIndex={i === Math.min(active, boxes.length - 1) ? 0 : -1}
              style={{
                left: `${box.x}px`,
                top: `${box.y}px`,
                width: `${box.width}px`,
                height: `${box.height}px`,
              }}
              onFocus={() => setActive(i)}
              onKeyDown={(e) => onKey(e, i)}
              onClick={() => {
                if (!onPick) return;
                focusNextLevel = true;
                onPick(tile);
              }}
            />
          );
        })}
      </div>
    </div>
  );
}
