// The command line as a process among others: the built CLI under a real pseudo-terminal (Ctrl-C and
// Ctrl-D at the DELETE prompt) and at the head of a shell pipeline whose reader leaves early.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeConfigFile } from "../../test-support/config-file.js";
import { describe, expect, it } from "vitest";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { statePaths } from "../state/state-dir.js";

/** `count` sessions last used long ago in `root`, and a config that makes all but the newest candidates. */
function store(root: string, count: number) {
  mkdirSync(root, { recursive: true });
  const paths = Array.from({ length: count }, (_, i) => {
    const path = writeSession(root, `/work/p${i % 2}`, 1).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, 1, 0, i)));
    return path;
  });
  const config = writeConfigFile(
    {
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    },
    join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "session-retention.json"),
  );
  return { paths, args: `--root '${root}' --config '${config}'` };
}

const lockFile = () => join(statePaths().dir, "deletion.lock");
const ledgers = () =>
  existsSync(join(statePaths().dir, "trash")) ? readdirSync(join(statePaths().dir, "trash")) : [];

/** Runs a command with bash (for PIPESTATUS) in the test's sandboxed environment. */
function bash(script: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], {
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("exit", (code) => resolve({ stdout, stderr, code }));
  });
}

// Runs argv[1] in a new pseudo-terminal, types argv[2] once the DELETE prompt shows, and exits with
// the command's exit status after printing everything the terminal showed.
const UNDER_PTY = `
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
seen, typed, deadline = b"", False, time.time() + 25
while time.time() < deadline:
    if select.select([fd], [], [], 0.1)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the command exited and the terminal closed
            break
        if not chunk:
            break
        seen += chunk
    if not typed and b"Type DELETE" in seen:
        time.sleep(0.2)  # readline is reading the terminal by now
        os.write(fd, sys.argv[2].encode())
        typed = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
`;

function underPty(command: string, keys: string): Promise<{ shown: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn("python3", ["-c", UNDER_PTY, command, keys], {
      env: { ...process.env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let shown = "";
    child.stdout.on("data", (chunk) => (shown += chunk));
    child.once("exit", (code) => resolve({ shown, code }));
  });
}

describe("the DELETE prompt in a terminal", () => {
  it.each([
    ["Ctrl-C", "\x03"],
    ["Ctrl-D", "\x04"],
  ])("%s cancels: exit 130, one line saying so, no stack trace, nothing moved", async (_key, keys) => {
    const s = store(realpathSync(mkdtempSync(join(tmpdir(), "sr-pty-"))), 4);
    const { shown, code } = await underPty(`node bin/session-retention.js clean ${s.args}`, keys);
    expect(shown).toContain("Type DELETE to move 3 sessions");
    expect(code, shown).toBe(130);
    expect(shown).toMatch(/\r\nCancelled: nothing was moved\.\r\n$/);
    expect(shown).not.toMatch(/AbortError|Error:|\n\s+at /);
    for (const path of s.paths) expect(existsSync(path), path).toBe(true);
    expect(existsSync(lockFile())).toBe(false);
  });
});

describe("a reader that leaves early", () => {
  it("clean --yes | head -1: nothing moves, the CLI exits 1 and says why, and no lock is left", async () => {
    // A preview (every row: --all) several times a pipe's buffer (64 KiB) and what head reads at
    // once (a few KiB): the reader is certainly gone before clean could have delivered it, whatever
    // the timing.
    const deep = ["a", "b", "c"].map((c) => c.repeat(200));
    const s = store(join(realpathSync(mkdtempSync(join(tmpdir(), "sr-pipe-"))), ...deep), 300);
    const { stdout, stderr, code } = await bash(
      `node bin/session-retention.js clean --yes --all ${s.args} | head -1; exit \${PIPESTATUS[0]}`,
    );
    expect(stdout).toMatch(/^299 sessions, .* would go to the quarantine folder:\n$/);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain("the output was closed before anything moved; nothing was moved.");
    for (const path of s.paths) expect(existsSync(path), path).toBe(true);
    expect(existsSync(lockFile())).toBe(false);
    expect(ledgers()).toEqual([]);
  });

  it("scan --json | head -1 ends quietly with 0", async () => {
    const s = store(realpathSync(mkdtempSync(join(tmpdir(), "sr-pipe-"))), 300);
    const { stdout, stderr, code } = await bash(
      `node bin/session-retention.js scan --json ${s.args} | head -1; exit \${PIPESTATUS[0]}`,
    );
    expect(stdout).toMatch(/^\{"scannedAt":/);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });
});
