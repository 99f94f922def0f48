// The state folder is private: after everything that writes to it — a scan (cache, growth), a
// protect (pins, lock, audit), an active marker, a dashboard start (server.json, the redirect file,
// a demo store) and a clean (ledger, lock, audit) — every folder in it is 0700 and every file 0600,
// and a folder an older version left 0755 is tightened. (The suite runs as root, for whom modes
// stop nothing: they are checked as numbers.)
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { startServe, withStubBrowser } from "../../test-support/serve-child.js";
import { runCli } from "../cli/main.js";
import { factsFileIn } from "./facts-store.js";
import { removeActiveMarker, writeActiveMarker } from "./active-marker.js";
import { statePaths } from "./state-dir.js";

const quiet = { stdout: () => {}, stderr: () => {} };

/** Every path under `dir` whose mode is not 0700 (folders) or 0600 (files), with its mode. */
function looserThanPrivate(dir: string): string[] {
  const wrong: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = lstatSync(path);
      const mode = stat.mode & 0o777;
      if (stat.isDirectory()) {
        if (mode !== 0o700) wrong.push(`${path} ${mode.toString(8)}`);
        walk(path);
      } else if (mode !== 0o600) wrong.push(`${path} ${mode.toString(8)}`);
    }
  };
  walk(dir);
  return wrong;
}

describe("the state folder", () => {
  it("holds only private files (0600) in private folders (0700), an older loose one tightened", async () => {
    const state = statePaths().dir;
    // What an older version left: a 0755 state folder and growth folder, a 0644 scan cache (of the
    // format before the facts store, which goes; and a facts store that is not one, set aside).
    mkdirSync(join(state, "growth"), { recursive: true, mode: 0o755 });
    chmodSync(state, 0o755);
    chmodSync(join(state, "growth"), 0o755);

    const root = mkdtempSync(join(tmpdir(), "sr-private-"));
    mkdirSync(statePaths().scanCache, { recursive: true, mode: 0o755 });
    writeFileSync(join(statePaths().scanCache, "0123456789abcdef.cache"), "old", { mode: 0o644 });
    writeFileSync(factsFileIn(statePaths().scanCache), "old", { mode: 0o644 });
    const old = writeSession(root, "/work/app", 2).getSessionFile()!;
    writeSession(root, "/work/app", 1);
    setModified(old, new Date(Date.now() - 400 * 86_400_000));
    const config = join(root, "..", "sr-private-config.json");
    writeFileSync(config, JSON.stringify({ retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 } }));

    expect(await runCli(["scan", "--root", root], quiet)).toBe(0);
    const id = /_(.+)\.jsonl$/.exec(old)![1]!;
    expect(await runCli(["protect", id, "--root", root], quiet)).toBe(0);
    expect(await runCli(["unprotect", id, "--root", root], quiet)).toBe(0);
    writeActiveMarker(statePaths().activeMarkers, {
      pid: process.pid,
      sessionFile: join(root, "x.jsonl"),
      startedAt: new Date().toISOString(),
    });
    removeActiveMarker(statePaths().activeMarkers, process.pid);
    const marker = writeActiveMarker(statePaths().activeMarkers, {
      pid: 1,
      sessionFile: join(root, "y.jsonl"),
      startedAt: new Date().toISOString(),
    });
    expect(await runCli(["clean", "--yes", "--root", root, "--config", config], quiet)).toBe(0);
    expect(existsSync(old)).toBe(false);

    // No --root and no pi store: serve generates its demo store in the state folder. Not
    // --no-open: the (stub) browser is opened through the redirect file.
    const { env, opened } = withStubBrowser();
    const server = await startServe([], env);
    try {
      // The browser is opened just after the address is printed.
      await vi.waitFor(() => expect(existsSync(opened)).toBe(true));
      expect(existsSync(join(state, "server.json"))).toBe(true);
      expect(existsSync(join(state, "open-dashboard.html"))).toBe(true);
      expect(existsSync(statePaths().demoStore)).toBe(true);
      expect(existsSync(marker)).toBe(true);
      expect(looserThanPrivate(state)).toEqual([]);
      expect(lstatSync(state).mode & 0o777).toBe(0o700);
    } finally {
      await server.stop();
    }
    expect(looserThanPrivate(state)).toEqual([]);
  });
});
