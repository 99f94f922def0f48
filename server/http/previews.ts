// The plans the dashboard has shown, kept for a while by a random id, so that a delete executes
// exactly what was previewed — the candidates with the fingerprints the preview saw — in one
// request, however many sessions it holds (ids and fingerprints of 1,500 sessions do not fit one
// 64 KiB body, and a request per few hundred meant a fresh scan of the whole store each).
import { randomBytes } from "node:crypto";
import type { Plan } from "../../shared/plan.js";
import type { SoftDeleteRequest } from "../delete/deletion-engine.js";
import { NotFoundError, UserError } from "../errors.js";

/** What a preview lets a delete execute. */
export type Preview = Pick<SoftDeleteRequest, "items" | "orphanedMeta" | "via">;

/** A few plans, the newest: a page shows one wizard at a time. */
const KEPT = 8;
/** How long a review may stay open before its plan must be made again. */
const TTL_MS = 60 * 60_000;

/** A preview that was never made, has expired or was executed already: nothing is deleted (404). */
export class UnknownPreviewError extends NotFoundError {
  constructor() {
    super("this preview has expired or was executed already; review the plan again");
  }
  override name = "UnknownPreviewError";
}

export function createPreviews(now = () => Date.now()) {
  const previews = new Map<string, Preview & { at: number }>();
  return {
    /** Keeps what `plan` would remove and returns the plan with the id that executes it. */
    remember(plan: Plan, via: "policy" | "selection"): Plan {
      const id = randomBytes(12).toString("base64url");
      previews.set(id, {
        at: now(),
        via,
        items: plan.candidates.map((c) => ({
          id: c.id,
          ...(c.fingerprint ? { fingerprint: c.fingerprint } : {}),
        })),
        orphanedMeta: (plan.orphanedMeta ?? []).map((o) => o.path),
      });
      for (const [old, preview] of previews)
        if (previews.size > KEPT || now() - preview.at > TTL_MS) previews.delete(old);
      return { ...plan, previewId: id };
    },
    /**
     * The preview of an id, once: a second delete of the same review is refused. `ticks`: the
     * candidates left ticked in the review, as `only` those or all `except` those (whichever list is
     * shorter: a request body is at most 64 KiB) — a part of the preview, never anything else (then
     * the orphaned index files, which were not offered for ticking, stay).
     */
    take(id: string, ticks: { only?: readonly string[]; except?: readonly string[] } = {}): Preview {
      const preview = previews.get(id);
      if (!preview || now() - preview.at > TTL_MS) {
        previews.delete(id);
        throw new UnknownPreviewError();
      }
      const named = ticks.only ?? ticks.except;
      if (named === undefined) {
        previews.delete(id);
        const { at: _at, ...rest } = preview;
        return rest;
      }
      const offered = new Set(preview.items.map((item) => item.id));
      const foreign = named.find((ticked) => !offered.has(ticked));
      if (foreign !== undefined)
        throw new UserError(`session ${foreign} is not in this preview; review the plan again`);
      previews.delete(id);
      const set = new Set(named);
      const keep = ticks.only !== undefined;
      return {
        via: preview.via,
        items: preview.items.filter((item) => set.has(item.id) === keep),
        orphanedMeta: [],
      };
    },
  };
}
