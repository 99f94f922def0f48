// pi store roots as the stores a scan or a delete takes (`StoreRef`s), for tests that name pi's folders.
import type { StoreRef } from "../shared/session-record.js";

/** Each root as a pi store. */
export const piStores = (...roots: string[]): StoreRef[] => roots.map((root) => ({ kind: "pi", root }));
