// A Claude Code transcript in detail for the drawer, from transcripts of the shapes Claude Code writes
// (test-support/claude-store.ts): its lines by type, branches and compactions, the first prompt
// typed. That only the file the look found is read, as far as it measured it, is held for every
// adapter's reader in ../session-detail.test.ts.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedNow } from "../../../test-support/fixture-files.js";
import { ClaudeStoreBuilder, PARSE_CAP, type Transcript } from "../../../test-support/claude-store.js";
import { storeAdapter } from "../store-adapter.js";
import { readClaudeDetail } from "./claude-detail.js";

/** A saved transcript built by `build`, and its lines as written. */
function transcript(build: (t: Transcript) => void) {
  const b = new ClaudeStoreBuilder(realpathSync(mkdtempSync(join(tmpdir(), "sr-claude-detail-"))));
  const t = b.session("/home/dev/shop", 3);
  build(t);
  return { path: b.save(t), lines: t.lines };
}

/** The lines by their top-level type, counted from what was written. */
const typesOf = (lines: ReadonlyArray<Record<string, unknown>>) => {
  const types: Record<string, number> = {};
  for (const { type } of lines) types[type as string] = (types[type as string] ?? 0) + 1;
  return types;
};

describe("readClaudeDetail", () => {
  it("counts lines by type, finds the first prompt typed, the compaction and the branch a rewind made; a pasted image is read by its ends", async () => {
    const { path, lines } = transcript((t) =>
      t
        .snapshot(3)
        .user("<command-name>/model</command-name>")
        .user("Fix the flaky checkout test in the cart module")
        .conversation(3)
        .compacted("We fixed the cart's retry.")
        .assistant("Carrying on from the summary.")
        .user("and the invoice webhook?")
        .assistant("Done.")
        .rewind(2)
        .user("and the invoice queue instead?")
        .pastedImage(PARSE_CAP + 10_000, "this screenshot")
        .assistant("Seen.")
        .customTitle("checkout fixes")
        .lastPrompt("this screenshot"),
    );
    const detail = await readClaudeDetail(path, recordedNow(path));
    expect(detail.entryTypes).toEqual(typesOf(lines));
    expect(detail.firstUserMessage).toBe("Fix the flaky checkout test in the cart module");
    expect(detail.compactions).toBe(1);
    // One chain through the compaction (its boundary names the message before it), split once by
    // the rewind: two ends, one branch point.
    expect(detail.branchPoints).toBe(1);
    expect(detail.leaves).toBe(2);
    expect(detail.longLines).toBe(1);
  });

  it("is what the API's detail reads for a Claude Code session (the adapter's reader)", async () => {
    const { path } = transcript((t) => t.user("hello there").assistant("hi"));
    const reader = await storeAdapter("claude");
    expect(await reader.sessionDetail!(path, recordedNow(path))).toEqual(
      await readClaudeDetail(path, recordedNow(path)),
    );
  });

  it("a first prompt longer than the preview is cut to 300 characters", async () => {
    const { path } = transcript((t) => t.user("x".repeat(1000)).assistant("ok"));
    expect((await readClaudeDetail(path, recordedNow(path))).firstUserMessage).toBe(`${"x".repeat(300)}…`);
  });
});
