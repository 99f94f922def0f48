import { appendFileSync, mkdtempSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedNow } from "../../../test-support/fixture-files.js";
import { writeSession } from "../../../test-support/pi-store.js";
import { readSessionDetail, SessionFileChangedError } from "./session-detail.js";

describe("readSessionDetail", () => {
  it("counts entries by type, finds the first user message, branches and leaves; long lines are not parsed", async () => {
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
    const detail = await readSessionDetail(file, recordedNow(file));
    expect(detail.entryTypes).toEqual({ message: 7, session_info: 1, compaction: 1 });
    expect(detail.compactions).toBe(1);
    expect(detail.firstUserMessage).toBe("question 0 in /work/app");
    expect(detail.branchPoints).toBe(1);
    expect(detail.leaves).toBe(2); // the session_info at the end of one branch, the compaction on the other
    expect(detail.longLines).toBe(1);
  });
});

describe("readSessionDetail reads only the file the look found, as far as it measured it", () => {
  it("what pi appended since is not read: the detail agrees with the record", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-detail-")));
    const file = writeSession(root, "/work/app", 2).getSessionFile()!;
    const looked = recordedNow(file);
    const before = await readSessionDetail(file, looked);
    appendFileSync(file, readFileSync(file, "utf8").split("\n").slice(1).join("\n"));
    expect(await readSessionDetail(file, looked)).toEqual(before);
  });

  it("another file at its path is refused: 409, the reason said", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-detail-")));
    const file = writeSession(root, "/work/app", 2).getSessionFile()!;
    const looked = recordedNow(file);
    writeFileSync(`${file}.new`, readFileSync(file));
    renameSync(`${file}.new`, file);
    const refusal = await readSessionDetail(file, looked).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SessionFileChangedError);
    expect(refusal).toMatchObject({
      status: 409,
      apiCode: "changed",
      message:
        "this session's file changed since the last look (another file is at its path now); rescan to see it as it is",
    });
  });
});
