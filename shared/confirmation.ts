// How much friction a soft delete asks for, in proportion to what it removes: a few hand-picked
// sessions go in one click (the result offers Undo); a large clean — many sessions or a large
// share of the store — asks to type DELETE and says the share ("removes 99.7 % of the store").
// Purge, which is permanent, has its own confirmation.

/** More sessions than this is a large clean. */
export const LARGE_CLEAN_SESSIONS = 100;
/** More than this share of the store's bytes is a large clean. */
export const LARGE_CLEAN_SHARE = 0.25;

export interface Confirmation {
  /** Type DELETE before moving. */
  typed: boolean;
  /** The share of the store's bytes it removes, 0..1 (0 for an empty store). */
  share: number;
  /** "removes 99.7 % of the store" — shown whatever the friction. */
  summary: string;
}

/** The share as the wizard says it: one decimal, never "0.0 %" or "100.0 %" unless exact. */
export function formatShare(share: number): string {
  const percent = share * 100;
  let shown = Math.round(percent * 10) / 10;
  if (shown === 0 && percent > 0) shown = 0.1;
  if (shown === 100 && percent < 100) shown = 99.9;
  return `${shown.toFixed(1)} %`;
}

export function confirmationFor(clean: {
  sessions: number;
  bytes: number;
  storeBytes: number;
}): Confirmation {
  const share = clean.storeBytes > 0 ? Math.min(1, clean.bytes / clean.storeBytes) : 0;
  const typed = clean.sessions > LARGE_CLEAN_SESSIONS || share > LARGE_CLEAN_SHARE;
  return { typed, share, summary: `removes ${formatShare(share)} of the store` };
}
