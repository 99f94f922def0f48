// Plain-text tables for the terminal: columns padded to their widest cell.
export function renderTable(headers: string[], rows: string[][], rightAligned: number[] = []): string {
  // A loop, not Math.max(...rows): a plan can list 100,000 rows, more than a call's arguments may be.
  const widths = headers.map((h, i) =>
    rows.reduce((width, row) => Math.max(width, (row[i] ?? "").length), h.length),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1) return cell;
        return rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].map((l) => `  ${l}`).join("\n");
}
