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
