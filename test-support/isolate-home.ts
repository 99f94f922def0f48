// Vitest setup file: every test process gets its own empty HOME, agent dir and XDG data dir, so no
// test can read or touch the real ones — even by accident through a default path.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const home = mkdtempSync(join(tmpdir(), "sr-home-"));
process.env.HOME = home;
process.env.PI_CODING_AGENT_DIR = join(home, ".pi", "agent");
process.env.XDG_DATA_HOME = join(home, ".local", "share");
delete process.env.PI_CODING_AGENT_SESSION_DIR;
