// Human-readable bytes and times, identical in the CLI, the dashboard and the pi extension.

// Binary multiples, labelled as such (IEC): the Policy page asks for GiB, and 1 "MB" that is 1024²
// bytes would be off by 5 % from what a decimal reader expects.
const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;

/** 1536 → "1.50 KiB". Binary multiples (1 KiB = 1024 B), as du -h and gdu count them. */
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

/**
 * A share as the one percentage the CLI, the pi extension and the dashboard all show: rounded to the
 * nearest whole percent (3.7 % → "4%"), except that a share short of the whole never reads "100%"
 * and a share above nothing never reads "0%" ("<1%") — the two values a quota reader acts on.
 */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio) || ratio < 0) return "?";
  if (ratio > 0 && ratio < 0.005) return "<1%";
  const whole = Math.round(ratio * 100);
  return `${ratio < 1 ? Math.min(whole, 99) : whole}%`;
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

/** A count and its noun, singular for one: "1 leaf", "2 leaves", "0 branch points". */
export const counted = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
