// Human-readable bytes and times, identical in the CLI, the dashboard and the pi extension.

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"] as const;

/** 1536 → "1.5 KB". Binary multiples (1 KB = 1024 B), as du -h and gdu show them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "?";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value} B`;
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${UNITS[unit]}`;
}

const SPANS: ReadonlyArray<readonly [number, string]> = [
  [365 * 24 * 3600, "y"],
  [30 * 24 * 3600, "mo"],
  [7 * 24 * 3600, "w"],
  [24 * 3600, "d"],
  [3600, "h"],
  [60, "min"],
];

/** "3d ago", "just now", "in 2h" (clock skew happens). */
export function formatRelativeTime(iso: string, now: Date): string {
  const seconds = Math.round((now.getTime() - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return "?";
  const abs = Math.abs(seconds);
  for (const [span, unit] of SPANS) {
    if (abs >= span) {
      const n = Math.floor(abs / span);
      return seconds >= 0 ? `${n}${unit} ago` : `in ${n}${unit}`;
    }
  }
  return "just now";
}
