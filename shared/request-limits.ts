// How large a request to the dashboard API may be, decided here once: the server refuses a larger
// body (413, before any route reads it) or a longer list (400, by the request schemas of api.ts),
// and the dashboard sizes what it sends to fit.

/** The largest request body the server reads. */
export const REQUEST_BODY_LIMIT_BYTES = 64 * 1024;

/** Most ids, items or refs one request may name (a keep, a protect, a delete's items, a restore). */
export const MAX_IDS_PER_REQUEST = 10_000;

/** Most ids a plan selection or a preview's ticks may name (the body limit is what binds first). */
export const MAX_SELECTION_IDS = 100_000;

/** The bytes of `body` as a request carries it: JSON, in UTF-8. */
export function requestBytes(body: unknown): number {
  let bytes = 0;
  for (const char of JSON.stringify(body)) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * How many of `ids`, from the first, one request that names them (`{"ids":[…]}`) carries within
 * the body limit: about 1,680 pi ids (36 characters), 1,420 Claude Code ones (`claude:` and 36).
 */
export function idsThatFit(ids: readonly string[]): number {
  let bytes = requestBytes({ ids: [] });
  for (const [i, id] of ids.entries()) {
    bytes += requestBytes(id) + (i > 0 ? 1 : 0); // the id, quoted, and the comma before it
    if (bytes > REQUEST_BODY_LIMIT_BYTES) return i;
  }
  return ids.length;
}
