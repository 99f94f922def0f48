// What the pi extension's status line counts: pi's own stores, not another agent's sessions that
// happen to be on the same machine — unless the config names the stores to count.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeCodexStore } from "../test-support/codex-store.js";
import { writeConfigFile } from "../test-support/config-file.js";
import { writeGeminiStore } from "../test-support/gemini-store.js";
import { writeSession } from "../test-support/pi-store.js";
import { statePaths } from "../server/state/state-dir.js";
import { lookAtStores } from "./look.js";

describe("lookAtStores", () => {
  it("counts pi's sessions and leaves Claude Code's, Codex's and Gemini CLI's out, unless the config's stores name it", async () => {
    const home = process.env.HOME!;
    writeSession(join(statePaths().dir, "..", "sessions"), "/work/app", 1);
    const claude = join(home, ".claude");
    const id = "0b0e8f52-6a36-4d7c-9a38-3e5c1e0e8c11";
    mkdirSync(join(claude, "projects", "-work-app"), { recursive: true });
    writeFileSync(
      join(claude, "projects", "-work-app", `${id}.jsonl`),
      `${JSON.stringify({ type: "user", cwd: "/work/app", sessionId: id, timestamp: new Date().toISOString() })}\n`,
    );
    // Codex's and Gemini CLI's stores on the same machine are left out too.
    writeCodexStore(join(home, ".codex"));
    writeGeminiStore(home);
    expect((await lookAtStores()).look.sessionCount).toBe(1);
    writeConfigFile({
      stores: [
        { kind: "pi", root: "~/.pi/agent/sessions" },
        { kind: "claude", root: "~/.claude" },
      ],
    });
    expect((await lookAtStores()).look.sessionCount).toBe(2);
  });
});
