// Vitest setup file: every test file gets its own empty HOME, agent dir, XDG data dir and temp dir,
// so no test can read or touch the real ones — even by accident through a default path — and
// everything a test leaves behind is removed with the folder afterwards (SR_KEEP_HOME=1 keeps it, and
// so does a test that leaves a KEEP_FOR_DIAGNOSIS file in it: a crash trial that failed).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** The file a test leaves in its HOME to have the folder kept (test-support/crash-harness.ts). */
const KEEP_FOR_DIAGNOSIS = "KEEP_FOR_DIAGNOSIS";

const home = mkdtempSync(join(tmpdir(), "sr-home-"));
process.env.HOME = home;
process.env.PI_CODING_AGENT_DIR = join(home, ".pi", "agent");
process.env.XDG_DATA_HOME = join(home, ".local", "share");
delete process.env.PI_CODING_AGENT_SESSION_DIR;
// Claude Code's folder is found from HOME, like pi's, never from the machine's own setting.
delete process.env.CLAUDE_CONFIG_DIR;
// And its temp folder from TMPDIR below (tests that give sessions temp folders name their own).
delete process.env.CLAUDE_CODE_TMPDIR;
// Codex too: its home and databases from HOME (tests that use a Codex store set CODEX_HOME themselves).
delete process.env.CODEX_HOME;
delete process.env.CODEX_SQLITE_HOME;
// Gemini CLI's too: its home stand-in, and its machine-wide settings and trust, never the machine's.
delete process.env.GEMINI_CLI_HOME;
delete process.env.GEMINI_CLI_TRUST_WORKSPACE;
delete process.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(home, "etc", "gemini-cli", "settings.json");
process.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH = join(home, "etc", "gemini-cli", "system-defaults.json");
// os.tmpdir() reads TMPDIR on every call, so temp folders made by tests land inside `home` too.
process.env.TMPDIR = join(home, "tmp");
mkdirSync(process.env.TMPDIR);

afterAll(() => {
  // SR_KEEP_HOME=1 keeps it, to look at what a failing test (a real agent) wrote.
  if (process.env.SR_KEEP_HOME || existsSync(join(home, KEEP_FOR_DIAGNOSIS)))
    return void process.stderr.write(`kept ${home}\n`);
  // Folders a test made unreadable (permission tests) must not stop the clean-up.
  rmSync(home, { recursive: true, force: true, maxRetries: 2 });
});
