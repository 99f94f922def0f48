import { appendFileSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSession } from "../../../test-support/pi-store.js";
import { readSessionDetail } from "./session-detail.js";

describe("readSessionDetail", () => {
  it("counts entries by type, finds the first user message, branches and leaves; long lines are not parsed", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-detail-")));
    const file = writeSession(root, "/work/app", 3, { name: "named" }).getSessionFile()!;
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const firstUser = JSON.parse(lines[1]!) as { id: string };
    // A second answer to the first question: the conversation branches there.
    appendFileSync(
      file,
      `${JSON.stringify({ type: "message", id: "branch-1", parentId: firstUser.id, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "assistant", content: [{ type: "text", text: "another answer" }] } })}\n`,
    );
    appendFileSync(
      file,
      `{"type":"compaction","id":"c1","parentId":"branch-1","timestamp":"2026-01-01T00:00:01.000Z","summary":"${"x".repeat(1_200_000)}"}\n`,
    );
    const detail = readSessionDetail(file);
    expect(detail.entryTypes).toEqual({ message: 7, session_info: 1, compaction: 1 });
    expect(detail.compactions).toBe(1);
    expect(detail.firstUserMessage).toBe("question 0 in /work/app");
    expect(detail.branchPoints).toBe(1);
    expect(detail.leaves).toBe(2); // the session_info at the end of one branch, the compaction on the other
    expect(detail.longLines).toBe(1);
  });
});
