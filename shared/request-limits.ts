// How large a request to the dashboard API may be, decided here once: the server refuses a larger
// body (413, before any route reads it) or a longer list (400, by the request schemas of api.ts),
// and the dashboard sizes what it sends to fit.

/** The largest request body the server reads. */
export const REQUEST_BODY_LIMIT_BYTES = 64 * 1024;

/** Most ids, items or refs one request may name (a keep, a protect, a delete's items, a restore). */
export const MAX_IDS_PER_REQUEST = 10_000;

/** Most ids a plan selection or a preview's ticks may name (the body limit is what binds first). */
export const MAX_SELECTION_IDS = 100_000;
