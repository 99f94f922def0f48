// The scan's progress line as a real process sees it: on a pseudo-terminal (util-linux `script`)
// it shows and is erased before the output; piped, or with --json, stderr stays clean.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { BIN } from "../../test-support/serve-child.js";
import { moveProgressText, progressText } from "./progress.js";

const ERASE = "\r\u001b[K";

function store() {
  const root = mkdtempSync(join(tmpdir(), "sr-progress-"));
  for (let i = 0; i < 5; i++) writeSession(root, `/work/p${i}`, 1);
  return root;
}

/** Runs the real bin on a pseudo-terminal; returns what the terminal received. */
function onTerminal(args: string[], delayMs: number) {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(" ");
  const result = spawnSync("script", ["-qfec", command, "/dev/null"], {
    encoding: "utf8",
    env: { ...process.env, SESSION_RETENTION_PROGRESS_DELAY_MS: String(delayMs) },
    timeout: 30_000,
  });
  return { status: result.status, terminal: result.stdout };
}

describe("the scan's progress line", () => {
  it("says how many files, in words people read", () => {
    expect(
      progressText({ phase: "walking", filesDone: 12345, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }),
    ).toBe("Scanning… 12,345 files");
    expect(
      progressText({ phase: "reading", filesDone: 812, filesTotal: 1435, bytesDone: 0, bytesTotal: 0 }),
    ).toBe("Scanning… 812 of 1,435 files");
  });

  it("shows on a terminal once the wait passes the delay, and is erased before the report", () => {
    const root = store();
    const { status, terminal } = onTerminal(["scan", "--root", root, "--no-cache"], 0);
    expect(status).toBe(0);
    const shown = terminal.indexOf("\rScanning… ");
    expect(shown).toBeGreaterThanOrEqual(0);
    // The line's text runs from its \r to the erase-to-end-of-line that follows it.
    expect(terminal.slice(shown + 1, terminal.indexOf("\u001b[K", shown))).toMatch(
      /^Scanning… \d+( of 5)? files$/,
    );
    const erased = terminal.lastIndexOf(ERASE);
    expect(erased).toBeGreaterThan(shown);
    expect(terminal.indexOf("Total: 5 sessions")).toBeGreaterThan(erased);
  });

  it("does not show before the delay (a quick scan prints nothing extra)", () => {
    const { status, terminal } = onTerminal(["scan", "--root", store()], 60_000);
    expect(status).toBe(0);
    expect(terminal).not.toContain("Scanning…");
    expect(terminal).not.toContain(ERASE);
  });

  it("never with --json on a terminal, nor on a pipe", () => {
    const root = store();
    const json = onTerminal(["scan", "--root", root, "--json", "--no-cache"], 0);
    expect(json.status).toBe(0);
    expect(json.terminal).not.toContain("Scanning…");
    const piped = spawnSync(process.execPath, [BIN, "scan", "--root", root, "--no-cache"], {
      encoding: "utf8",
      env: { ...process.env, SESSION_RETENTION_PROGRESS_DELAY_MS: "0" },
    });
    expect(piped.status).toBe(0);
    expect(piped.stderr).not.toContain("Scanning…");
  });
});

describe("the move's progress line", () => {
  it("says how many of how many", () => {
    expect(moveProgressText({ done: 812, total: 1435 })).toBe("Moving to the trash… 812 of 1,435");
  });

  /** Five sessions from January 2025 and a policy that takes all but the newest, into the quarantine. */
  const oldStore = () => {
    const root = mkdtempSync(join(tmpdir(), "sr-progress-"));
    for (let i = 0; i < 5; i++)
      setModified(writeSession(root, `/work/p${i}`, 1).getSessionFile()!, new Date(Date.UTC(2025, 0, 1 + i)));
    const policy = ["maxAgeDays=30", "minKeepRecentCount=1", "keepLastPerNamespace=0"];
    return [
      "--root",
      root,
      ...policy.flatMap((p) => ["--set", `retention.${p}`]),
      "--set",
      "deletion.target=quarantine",
    ];
  };

  it("shows while `clean` moves on a terminal and is erased before the report; never with --json", () => {
    const { status, terminal } = onTerminal(["clean", "--yes", ...oldStore()], 0);
    expect(status).toBe(0);
    const shown = terminal.lastIndexOf("\rMoving to the trash… ");
    expect(shown).toBeGreaterThanOrEqual(0);
    expect(terminal.slice(shown + 1, terminal.indexOf("\u001b[K", shown))).toMatch(
      /^Moving to the trash… \d of 4$/,
    );
    expect(terminal.indexOf("moved to the trash — still on disk")).toBeGreaterThan(
      terminal.lastIndexOf(ERASE),
    );
    const json = onTerminal(["clean", "--yes", "--json", ...oldStore()], 0);
    expect(json.status).toBe(0);
    expect(json.terminal).not.toContain("Moving to the trash…");
  });
});
