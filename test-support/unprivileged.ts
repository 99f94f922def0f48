// Running the real CLI or library as an unprivileged user, for the cases a test must never let
// reach the machine: a write aimed at `/`, `/etc` or the account's home. As root, the process is
// run as nobody (uid 65534), which can write none of them, so even a broken gate changes nothing;
// without root there is no one to drop to, and the caller skips.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";

/** Whether this process can run another as nobody. */
export const canRunAsNobody = process.getuid?.() === 0;

/**
 * A folder in `/tmp` that nobody may read (the test's own temp folder, inside its private home, is
 * closed to it), holding symlinks to `/` and `/etc`; removed after the test file.
 */
export function publicLinks(): { folder: string; root: string; etc: string } {
  const folder = mkdtempSync(join("/tmp", "sr-public-"));
  chmodSync(folder, 0o755);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  symlinkSync("/", join(folder, "to-root"));
  symlinkSync("/etc", join(folder, "to-etc"));
  return { folder, root: join(folder, "to-root"), etc: join(folder, "to-etc") };
}

/**
 * Runs `node args` as nobody, with only the environment given (plus PATH), in `cwd`, for at most
 * `timeout` ms: a gate that let a command walk `/` must fail the test, not hang it.
 */
export function runAsNobody(
  args: readonly string[],
  options: { env: Record<string, string>; cwd: string; timeout?: number },
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, args, {
    uid: 65534,
    gid: 65534,
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
    encoding: "utf8",
    timeout: options.timeout ?? 20_000,
  });
}
