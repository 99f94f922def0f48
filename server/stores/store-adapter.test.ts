// The adapter list: every kind of the kind registry has its adapter, under its own kind; each reader
// loads, and only an adapter whose files the incremental file scanner reads (pi's) has no scan of its own.
import { describe, expect, it } from "vitest";
import { STORE_KINDS } from "../../shared/store-kinds.js";
import { STORE_ADAPTERS } from "./adapters.js";
import { storeAdapter } from "./store-adapter.js";

describe("the adapter list", () => {
  it.each(STORE_KINDS)(
    "has %s's adapter under its own kind, with a reader that scans or is read by the file scanner",
    async (kind) => {
      const adapter = STORE_ADAPTERS[kind];
      expect(adapter.kind).toBe(kind);
      expect(adapter.watchDepth).toBeGreaterThanOrEqual(1);
      const reader = await storeAdapter(kind);
      expect(reader.kind).toBe(kind);
      expect(typeof reader.scan === "function").toBe(!adapter.readByFileScanner);
    },
  );

  it("lists no kind the kind registry does not know", () => {
    expect(Object.keys(STORE_ADAPTERS).sort()).toEqual([...STORE_KINDS].sort());
  });
});
