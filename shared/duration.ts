// Durations as people write them for restic and git alike — "30d", "12h", "2w", "2mo", "1y",
// "90min" — parsed the same way wherever one is given. A bare "m" is refused: restic reads it as
// months, most other tools as minutes, and a clean that keeps 1 minute instead of 1 month is not a
// guess worth making.

const UNIT_MS: Readonly<Record<string, number>> = {
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  mo: 30 * 86_400_000,
  y: 365 * 86_400_000,
};

export const DURATION_EXAMPLES = "30d, 12h, 2w, 2mo, 1y or 90min";

export type DurationParse = { ok: true; ms: number } | { ok: false; message: string };

/** "2mo" → 60 days in ms; "1m" → a message asking which was meant. */
export function parseDuration(text: string): DurationParse {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(text.trim());
  const amount = match?.[1];
  const unit = match?.[2];
  if (amount !== undefined && unit === "m")
    return {
      ok: false,
      message: `"${text}" is ambiguous: did you mean ${amount}mo (month) or ${amount}min?`,
    };
  const scale = unit === undefined ? undefined : UNIT_MS[unit];
  if (amount === undefined || scale === undefined || Number(amount) <= 0)
    return { ok: false, message: `wants a duration like ${DURATION_EXAMPLES}, got "${text}"` };
  return { ok: true, ms: Number(amount) * scale };
}
