// Plain-text tables for the terminal: columns padded to their widest cell.
export function renderTable(headers: string[], rows: string[][], rightAligned: number[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
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
