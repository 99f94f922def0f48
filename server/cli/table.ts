// Plain-text tables for the terminal: columns padded to their widest cell. Every cell is made
// visible (shared/visible-text.ts): cells hold session paths, names and namespaces, and a control
// character in one could rewrite the table a user confirms a deletion by.
import { visible } from "../../shared/visible-text.js";

export function renderTable(headers: string[], rows: string[][], rightAligned: number[] = []): string {
  const shown = rows.map((row) => row.map(visible));
  // A loop, not Math.max(...rows): a plan can list 100,000 rows, more than a call's arguments may be.
  const widths = headers.map((h, i) =>
    shown.reduce((width, row) => Math.max(width, (row[i] ?? "").length), h.length),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1) return cell;
        return rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join("  ")
      .trimEnd();
  return [line(headers), ...shown.map(line)].map((l) => `  ${l}`).join("\n");
}

/** How many rows a listing of sessions shows before `--all`: 20,000 rows are a wall, not an answer. */
export const SHOWN_ROWS = 20;

/**
 * `renderTable` of the first `SHOWN_ROWS` rows (in their order), then how many more there are and
 * how to see them; every row with `all`.
 */
export function renderTopRows(
  headers: string[],
  rows: string[][],
  rightAligned: number[],
  all: boolean,
): string {
  const rest = all ? 0 : Math.max(0, rows.length - SHOWN_ROWS);
  const table = renderTable(headers, rest > 0 ? rows.slice(0, SHOWN_ROWS) : rows, rightAligned);
  return rest > 0 ? `${table}\n  …and ${rest.toLocaleString("en-US")} more (--all to list every one)` : table;
}
