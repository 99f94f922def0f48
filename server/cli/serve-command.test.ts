// `session-retention serve` as a real process: when it stops — on SIGINT or SIGTERM — it removes
// what holds its token from the state dir: its record (server.json) and the redirect file the
// browser was opened through.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeSession } from "../../test-support/pi-store.js";
import { BIN, startServe, withStubBrowser } from "../../test-support/serve-child.js";
import { statePaths } from "../state/state-dir.js";

describe("serve stops clean", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "on %s, its record and its redirect file are removed",
    async (signal) => {
      const root = mkdtempSync(join(tmpdir(), "sr-serve-"));
      writeSession(root, "/work/app", 1);
      const record = join(statePaths().dir, "server.json");
      const redirect = join(statePaths().dir, "open-dashboard.html");
      const { env, opened } = withStubBrowser();
      const server = await startServe(["--root", root], env);
      try {
        // The (stub) browser is opened through the redirect file just after the address is printed.
        await vi.waitFor(() => expect(existsSync(opened)).toBe(true));
        expect(existsSync(redirect)).toBe(true);
        expect(existsSync(record)).toBe(true);
      } finally {
        await server.stop(signal);
      }
      expect(server.child.exitCode).toBe(0);
      expect(existsSync(redirect)).toBe(false);
      expect(existsSync(record)).toBe(false);
    },
  );
});

describe("a second serve", () => {
  it("for other stores says which stores the running one shows, starts nothing and exits 2; for the same, points at it", async () => {
    const first = realpathSync(mkdtempSync(join(tmpdir(), "sr-serve-a-")));
    const second = realpathSync(mkdtempSync(join(tmpdir(), "sr-serve-b-")));
    writeSession(first, "/work/app", 1);
    writeSession(second, "/work/lib", 1);
    const server = await startServe(["--root", first, "--no-open"]);
    try {
      // No --port: the default port, which a second dashboard must not silently stand in for.
      const serve = (root: string) =>
        spawnSync(process.execPath, [BIN, "serve", "--root", root, "--no-open"], {
          encoding: "utf8",
          timeout: 20_000,
        });
      const other = serve(second);
      expect(other.status).toBe(2);
      expect(other.stdout).toBe("");
      expect(other.stderr).toContain(`a dashboard is already running (pid ${server.child.pid}`);
      expect(other.stderr).toContain(`it shows    pi:${first} (config `);
      expect(other.stderr).toContain(`you asked   pi:${second} (config `);
      expect(other.stderr).toContain("--port 0 picks a free one");
      const same = serve(first);
      expect(same.status).toBe(0);
      expect(same.stdout.trim()).toBe(
        `session-retention dashboard is already running for these stores (pid ${server.child.pid}): ${server.url}`,
      );
    } finally {
      await server.stop();
    }
  });
});
