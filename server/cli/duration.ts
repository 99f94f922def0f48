// "30d", "12h", "2w", "90m" → milliseconds, for --older-than and --since.
import { UsageError } from "./errors.js";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag} wants a duration like 30d, 12h, 2w or 90m, got "${text}"`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
