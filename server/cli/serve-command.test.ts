// `session-retention serve` as a real process: when it stops — on SIGINT or SIGTERM — it removes
// what holds its token from the state dir: its record (server.json) and the redirect file the
// browser was opened through.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeSession } from "../../test-support/pi-store.js";
import { startServe, withStubBrowser } from "../../test-support/serve-child.js";
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
