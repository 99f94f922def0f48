import { describe, expect, it } from "vitest";
import { DeleteRequestSchema } from "../../shared/api.js";
import type { Plan } from "../../shared/plan.js";
import { createPreviews, UnknownPreviewError } from "./previews.js";

const fingerprint = { dev: 1, ino: 1, size: 10, mtimeNs: "1" };
const plan = {
  candidates: ["a", "b", "c"].map((id) => ({ id, fingerprint })),
  orphanedMeta: [{ path: "/store/x.meta" }],
} as unknown as Plan;

describe("a preview taken with the ticked candidates", () => {
  it("executes only those, with the fingerprints the preview saw, and no orphaned index file", () => {
    const previews = createPreviews();
    const { previewId } = previews.remember(plan, "policy");
    expect(previews.take(previewId!, { only: ["c", "a"] })).toEqual({
      via: "policy",
      items: [
        { id: "a", fingerprint },
        { id: "c", fingerprint },
      ],
      orphanedMeta: [],
    });
    expect(() => previews.take(previewId!)).toThrow(UnknownPreviewError);
  });

  it("refuses an id the preview did not offer, and the preview stays for a correct request", () => {
    const previews = createPreviews();
    const { previewId } = previews.remember(plan, "policy");
    expect(() => previews.take(previewId!, { only: ["a", "not-offered"] })).toThrow(
      /not-offered is not in this preview/,
    );
    expect(previews.take(previewId!).items.map((item) => item.id)).toEqual(["a", "b", "c"]);
  });
});

describe("a preview taken without the unticked candidates", () => {
  it("executes all of it but those (a few unticked of thousands fit any request body)", () => {
    const previews = createPreviews();
    const { previewId } = previews.remember(plan, "policy");
    expect(previews.take(previewId!, { except: ["b"] }).items).toEqual([
      { id: "a", fingerprint },
      { id: "c", fingerprint },
    ]);
  });

  it("refuses an unticked id the preview did not offer", () => {
    const previews = createPreviews();
    const { previewId } = previews.remember(plan, "policy");
    expect(() => previews.take(previewId!, { except: ["zzz"] })).toThrow(/zzz is not in this preview/);
  });
});

describe("the delete request naming ticks", () => {
  it("takes the ticked (ids) or the unticked (except), never both", () => {
    const previewId = "AAAAAAAAAAAAAAAA";
    expect(DeleteRequestSchema.safeParse({ previewId, except: ["a"] }).success).toBe(true);
    expect(DeleteRequestSchema.safeParse({ previewId, ids: ["a"] }).success).toBe(true);
    const both = DeleteRequestSchema.safeParse({ previewId, ids: ["a"], except: ["b"] });
    expect(both.success).toBe(false);
  });
});
