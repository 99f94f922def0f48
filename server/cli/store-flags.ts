// `--store KIND:DIR`, the one place the string form of a store is read: the CLI turns each flag into
// a `{ kind, root }` here, and everything below (resolveStores, the plan, the engine) takes those.
import { SESSION_DIR_KIND, STORE_KINDS, type StoreKind } from "../../shared/store-kinds.js";
import type { NamedStore } from "../scan/resolve-roots.js";
import { UsageError } from "./errors.js";

/** `--root DIR` (a pi store) and `--store KIND:DIR`, each repeatable: the stores to use instead. */
export const STORE_FLAGS = {
  root: { type: "string" as const, multiple: true as const, default: [] as string[] },
  store: { type: "string" as const, multiple: true as const, default: [] as string[] },
};

const STORE_FLAG = new RegExp(`^(${STORE_KINDS.join("|")}):(.*)$`, "s");

/** `--store agentsh:~/.agentsh/sessions` → its kind and folder. */
export function parseStoreFlag(value: string): { kind: StoreKind; root: string } {
  const match = STORE_FLAG.exec(value);
  if (!match)
    throw new UsageError(`--store wants KIND:DIR with KIND ${STORE_KINDS.join(", ")}, got "${value}"`);
  return { kind: match[1] as StoreKind, root: match[2]! };
}

/** Every `--store` given (none: an empty list). */
export const parseStoreFlags = (values: readonly string[] = []) => values.map(parseStoreFlag);

/** The stores `--root DIR` (each a pi store) and then `--store KIND:DIR` name, in that order. */
export const storeFlagsOf = (values: {
  root?: readonly string[];
  store?: readonly string[];
}): NamedStore[] => [
  ...(values.root ?? []).map((root) => ({ kind: SESSION_DIR_KIND, root, flag: "--root" })),
  ...parseStoreFlags(values.store),
];
