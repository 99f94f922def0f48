// Growth over time: the snapshot points kept after scans, the series the charts draw, and the
// forecast "100% in 12 days at the 7-day rate". Pure, so the server, the CLI and the tests agree.
// No zod here: the scan records a point after every run, and the scan path stays without zod. The
// payload schemas are in api.ts.

export interface GrowthPoint {
  /** The hour (or, for backfilled and old points, the day) the point stands for, ISO. */
  t: string;
  bytes: number;
  count: number;
  /** Backfilled from the sessions' created times: deleted sessions cannot be known. */
  estimated?: boolean;
  /** Per namespace: [bytes, count]. Kept on the last point of each day only. */
  ns?: Record<string, [number, number]>;
}

export interface Forecast {
  /** Bytes per day over the last 7 days (negative when shrinking). */
  ratePerDay: number;
  /** Days until the size quota is reached at that rate; null when not growing or no quota. */
  daysToFull: number | null;
  /** The rate starts from a backfilled (estimated) point. */
  estimated?: boolean;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * Adds a point for `now`, coalesced to one per hour (a later scan in the same hour replaces it),
 * keeps hourly points for 30 days and the last point of each day for 400 days, and the namespace
 * breakdown only on each day's last point: compact and fast to read.
 */
export function addGrowthPoint(
  points: readonly GrowthPoint[],
  point: Omit<GrowthPoint, "t">,
  now: Date,
): GrowthPoint[] {
  const t = hourOf(now.getTime());
  const next = points.filter((p) => p.t !== t && Date.parse(p.t) <= now.getTime());
  next.push({ t, ...point });
  next.sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  const hourlyFrom = now.getTime() - 30 * DAY_MS;
  const keepFrom = now.getTime() - 400 * DAY_MS;
  const lastOfDay = new Map<string, GrowthPoint>();
  for (const p of next) lastOfDay.set(dayOf(p.t), p);
  const kept: GrowthPoint[] = [];
  for (const p of next) {
    const ms = Date.parse(p.t);
    const isLast = lastOfDay.get(dayOf(p.t)) === p;
    if (ms < keepFrom || (ms < hourlyFrom && !isLast)) continue;
    if (isLast || !p.ns) kept.push(p);
    else {
      const { ns: _ns, ...withoutNamespaces } = p;
      kept.push(withoutNamespaces);
    }
  }
  return kept;
}

/** The last 30 days reconstructed from the sessions that exist now: an estimate, marked as such. */
export function backfillGrowth(
  sessions: ReadonlyArray<{ createdAt: string; sizeBytes: number; namespace: string }>,
  now: Date,
  days = 30,
): GrowthPoint[] {
  const points: GrowthPoint[] = [];
  // Creation times and an order of indexes, not a copy of every record: at 100,000 sessions the
  // copies were ~57 MB of garbage on a server's first scan.
  const createdMs = Float64Array.from(sessions, (s) => Date.parse(s.createdAt));
  const order = Array.from(sessions, (_, i) => i).sort((a, b) => createdMs[a]! - createdMs[b]!);
  // One pass over that order, day by day: each day's sums are the last day's and the sessions
  // created since (summing every session again for each of 30 days was a tenth of a cold scan).
  let next = 0;
  let bytes = 0;
  let count = 0;
  const sums = new Map<string, [number, number]>();
  for (let d = days; d >= 1; d--) {
    const end = new Date(now.getTime() - d * DAY_MS);
    const dayEnd = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate(), 23, 59, 59, 999);
    for (; next < order.length && !(createdMs[order[next]!]! > dayEnd); next++) {
      const s = sessions[order[next]!]!;
      bytes += s.sizeBytes;
      count += 1;
      const entry = sums.get(s.namespace);
      if (entry) {
        entry[0] += s.sizeBytes;
        entry[1] += 1;
      } else sums.set(s.namespace, [s.sizeBytes, 1]);
    }
    const ns: Record<string, [number, number]> = {};
    // Defined, not assigned: a namespace is a cwd a session file names (`__proto__`, say).
    for (const [namespace, [b, c]] of sums)
      Object.defineProperty(ns, namespace, {
        value: [b, c],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    points.push({
      t: new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate(), 23)).toISOString(),
      bytes,
      count,
      estimated: true,
      ns,
    });
  }
  return points;
}

/** The points of the last `days` days, in total or for one namespace (daily points for a namespace). */
export function growthSeries(points: readonly GrowthPoint[], days: number, now: Date, namespace?: string) {
  const from = now.getTime() - days * DAY_MS;
  return points
    .filter((p) => Date.parse(p.t) >= from && (namespace === undefined || p.ns?.[namespace] !== undefined))
    .map((p) => ({
      t: p.t,
      bytes: namespace === undefined ? p.bytes : p.ns![namespace]![0],
      count: namespace === undefined ? p.count : p.ns![namespace]![1],
      ...(p.estimated ? { estimated: true } : {}),
    }));
}

/**
 * Days until `limit` bytes at the 7-day rate: the growth between the point closest to 7 days ago
 * and now. None when it is not growing, when there is no limit, or too little history.
 */
export function forecast(
  points: readonly GrowthPoint[],
  limit: number | null | undefined,
  now: Date,
): Forecast | undefined {
  const latest = points.at(-1);
  if (!latest) return undefined;
  const target = now.getTime() - 7 * DAY_MS;
  let base: GrowthPoint | undefined;
  for (const p of points)
    if (Math.abs(Date.parse(p.t) - target) < Math.abs(Date.parse(base?.t ?? "0") - target)) base = p;
  const spanDays = base ? (Date.parse(latest.t) - Date.parse(base.t)) / DAY_MS : 0;
  if (!base || spanDays < 1) return undefined;
  const ratePerDay = (latest.bytes - base.bytes) / spanDays;
  const estimated = base.estimated ? { estimated: true } : {};
  if (!limit || ratePerDay <= 0) return { ratePerDay, daysToFull: null, ...estimated };
  return { ratePerDay, daysToFull: Math.max(0, (limit - latest.bytes) / ratePerDay), ...estimated };
}

/** Growth per namespace, ready to stack: the largest namespaces by name, the rest as one "other". */
export interface NamespaceGrowth {
  /** The namespaces drawn on their own, largest (at the latest point) first. */
  namespaces: string[];
  /** How many smaller namespaces are folded into "other" (0: no "other" series). */
  otherNamespaces: number;
  points: Array<{
    t: string;
    /** The point's total: the stack always adds up to it ("other" takes what the top ones do not). */
    bytes: number;
    /** Per series: each of `namespaces`, then "other" when there is one. */
    series: number[];
    estimated?: boolean;
  }>;
}

/**
 * The points of the last `days` days that carry the namespace breakdown (each day's last point),
 * split into the `top` largest namespaces at the latest point and "other" — so a stacked chart
 * stays readable with hundreds of namespaces and its stack is the total.
 */
export function growthByNamespace(
  points: readonly GrowthPoint[],
  days: number,
  now: Date,
  top = 8,
): NamespaceGrowth {
  const from = now.getTime() - days * DAY_MS;
  const chosen = points.filter((p) => p.ns !== undefined && Date.parse(p.t) >= from);
  // Ranked by bytes at the latest point; namespaces gone since rank by their largest size.
  const latest = chosen.at(-1)?.ns ?? {};
  const peak = new Map<string, number>();
  for (const p of chosen)
    for (const [name, [bytes]] of Object.entries(p.ns!)) peak.set(name, Math.max(peak.get(name) ?? 0, bytes));
  const ranked = [...peak.keys()].sort(
    (a, b) =>
      (latest[b]?.[0] ?? -1) - (latest[a]?.[0] ?? -1) ||
      peak.get(b)! - peak.get(a)! ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  // "other" only when it stands for at least two namespaces: one would simply be drawn.
  const shown = ranked.length <= top + 1 ? ranked : ranked.slice(0, top);
  const otherNamespaces = ranked.length - shown.length;
  return {
    namespaces: shown,
    otherNamespaces,
    points: chosen.map((p) => {
      const series = shown.map((name) => p.ns![name]?.[0] ?? 0);
      if (otherNamespaces > 0) series.push(Math.max(0, p.bytes - series.reduce((sum, b) => sum + b, 0)));
      return { t: p.t, bytes: p.bytes, series, ...(p.estimated ? { estimated: true } : {}) };
    }),
  };
}
