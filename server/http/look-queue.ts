// The dashboard's next look, as one value: every request for a look (a rescan asked for, paths the
// watch saw change, a pin, a saved policy, a change of ours, the reconciliation, a look grown stale
// without a watch) merges into it, and the merge never narrows it — a walk owed absorbs the paths,
// a watched update never replaces a walk. When it is taken is decided here too, from a few facts;
// looks.ts carries the decision out (its timers, the gather).

/** What a look gathers beside the stores, each read again only when it may have changed. */
export type Beside = "config" | "pins" | "ledgers" | "live";
export const BESIDE: readonly Beside[] = ["config", "pins", "ledgers", "live"];

export interface NextLook {
  /** Walk every store: the stores may hold what the watch never said. */
  walk: boolean;
  /** Paths the watch saw change, scanned alone (none when walking: the walk reads them too). */
  paths: ReadonlySet<string>;
  /** What beside the stores is read again; the rest is kept from the last look. */
  reread: ReadonlySet<Beside>;
  /** Reads wait for this look: a change of ours, a pin or a policy moved the generation on. */
  awaited: boolean;
}

/** A request for a look: any part of one. */
export interface LookRequest {
  walk?: boolean;
  paths?: Iterable<string>;
  reread?: Iterable<Beside>;
  awaited?: boolean;
}

const NONE: ReadonlySet<never> = new Set();

export const NO_LOOK: NextLook = { walk: false, paths: NONE, reread: NONE, awaited: false };

/** Whether nothing is asked of the next look. */
export function isNothing(next: NextLook): boolean {
  return !next.walk && !next.awaited && next.paths.size === 0 && next.reread.size === 0;
}

function union<T>(a: ReadonlySet<T>, b: Iterable<T> | undefined): ReadonlySet<T> {
  if (b === undefined) return a;
  let out: Set<T> | undefined;
  for (const item of b)
    if (!(out ?? a).has(item)) {
      out ??= new Set(a);
      out.add(item);
    }
  return out ?? a;
}

/**
 * The look that does what `next` and `request` ask, and no more: a walk stays a walk and takes the
 * paths in, paths and re-reads add up, and a look that reads waited for stays awaited.
 */
export function merge(next: NextLook, request: LookRequest): NextLook {
  const walk = next.walk || request.walk === true;
  return {
    walk,
    paths: walk ? NONE : union(next.paths, request.paths),
    reread: union(next.reread, request.reread),
    awaited: next.awaited || request.awaited === true,
  };
}

/** When watched updates may run: their share of the time, as a budget of milliseconds. */
export interface Pacing {
  /** When the last watched update started. */
  lastStarted: number;
  /** Time the updates may still use as of `at`; below 0, they wait until it is earned back. */
  budgetMs: number;
  at: number;
}

/** A change is applied this long after it is seen, so that the changes of one write go together. */
export const BATCH_MS = 100;
/** At most this many updates a second. */
export const MIN_UPDATE_INTERVAL_MS = 250;
/**
 * The share of the time watched updates may use, on average (at 100,000 sessions an update and the
 * page's change of it cost ~0.3 s here): a change after a quiet spell is applied at once, a stream
 * of them no more often than this allows.
 */
export const UPDATE_SHARE = 0.5;
/** How much unused time a quiet spell saves up for the updates that follow it. */
export const UPDATE_BURST_MS = 2000;

export const freshPacing = (now: number): Pacing => ({ lastStarted: 0, budgetMs: UPDATE_BURST_MS, at: now });

/** The budget brought up to `now`, with `spent` ms of updating taken off. */
export function spend(pacing: Pacing, now: number, spent: number): Pacing {
  const earned = Math.min(UPDATE_BURST_MS, pacing.budgetMs + (now - pacing.at) * UPDATE_SHARE);
  return { ...pacing, budgetMs: earned - spent, at: now };
}

/** What to do about the next look now. */
export type Step = { start: NextLook } | { at: number } | undefined;

export interface QueueFacts {
  pending: NextLook;
  /** A look of the current generation is being taken: the next one follows it. */
  running: boolean;
  /** Someone waits for the look: a read, a page that follows, a rescan asked for. */
  demanded: boolean;
  /** When the first change of the pending paths or files was seen (batched from then on). */
  seenAt: number;
  pacing: Pacing;
  now: number;
}

/**
 * The plan: one look at a time; a look reads wait for is taken when someone wants it (a change of
 * ours with no page open waits for the next read); a walk at once; a re-read batched; paths alone —
 * a watched update — batched and paced, so that a stream of changes uses at most UPDATE_SHARE of
 * the time.
 */
export function plan(facts: QueueFacts): Step {
  const { pending } = facts;
  if (facts.running || isNothing(pending)) return undefined;
  if (pending.awaited) return facts.demanded ? { start: pending } : undefined;
  if (pending.walk) return { start: pending };
  // A file beside the stores changed (the config, a pin): batched like paths, never held back.
  if (pending.reread.size > 0) {
    const due = facts.seenAt + BATCH_MS;
    return due <= facts.now ? { start: pending } : { at: due };
  }
  const { pacing } = facts;
  const due = Math.max(
    facts.seenAt + BATCH_MS,
    pacing.lastStarted + MIN_UPDATE_INTERVAL_MS,
    // When the budget is back at 0: it earns UPDATE_SHARE ms a millisecond.
    pacing.at + Math.max(0, -pacing.budgetMs) / UPDATE_SHARE,
  );
  return due <= facts.now ? { start: pending } : { at: due };
}
