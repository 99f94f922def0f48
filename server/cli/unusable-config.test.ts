// An unusable config file — a FIFO, a device, a file over 1 MB, bytes that are not UTF-8, a BOM —
// through the real command in a child process (a regression that hangs then fails on a timeout
// instead of hanging the suite): every command says what is wrong with the file in its usual
// invalid-config message, and stays read-only; none hangs or fills memory.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo } from "../../test-support/fifo.js";
import { writeSession } from "../../test-support/pi-store.js";
import { BIN, startServe } from "../../test-support/serve-child.js";

const FIFO_PROBLEM = "(file): is a named pipe (FIFO), not a regular file";

/** A pi store with one session, and an agent dir whose session-retention.json is a FIFO. */
function setUp() {
  const home = mkdtempSync(join(tmpdir(), "sr-unusable-"));
  const agentDir = join(home, "agent");
  mkdirSync(agentDir);
  const root = join(home, "sessions");
  writeSession(root, "/work/app", 1);
  const fifo = mkfifo(join(agentDir, "session-retention.json"));
  return { root, fifo, env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } };
}

/** The CLI in a child process, killed after `timeout` ms (status null then). */
function cli(args: string[], env: NodeJS.ProcessEnv, timeout = 15_000) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env, encoding: "utf8", timeout });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("a FIFO as the config file: every command answers at once, read-only", () => {
  it.each([
    ["the default config path", [] as string[]],
    ["--config", ["--config", "FIFO"]],
  ])("config check, plan, status and scan — %s", (_where, flag) => {
    const { root, fifo, env } = setUp();
    const config = flag.map((arg) => (arg === "FIFO" ? fifo : arg));

    const check = cli(["config", "check", ...config], env);
    expect(check.status, check.stderr).toBe(2);
    expect(check.stderr).toContain(`invalid config ${fifo}:\n  ${FIFO_PROBLEM}`);
    expect(check.stderr).toContain("Running read-only");

    const plan = cli(["plan", "--root", root, ...config], env);
    expect(plan.status).toBe(2);
    expect(plan.stderr).toContain(`invalid config ${fifo}:\n  ${FIFO_PROBLEM}`);

    // Without --root the stores the file may name cannot be trusted: the refusal says why.
    for (const args of [["plan"], ["serve", "--no-open"]]) {
      const unrooted = cli([...args, ...config], env);
      expect(unrooted.status, args[0]).toBe(2);
      expect(unrooted.stderr, args[0]).toContain(`invalid config ${fifo}:\n  ${FIFO_PROBLEM}`);
      expect(unrooted.stderr, args[0]).toContain("cannot be trusted while the file is invalid");
    }

    const status = cli(["status", "--json", "--root", root, ...config], env);
    expect(status.status).toBe(3); // unknown
    expect(JSON.parse(status.stdout)).toMatchObject({
      level: "unknown",
      problems: [{ path: "(file)", message: expect.stringContaining("is a named pipe (FIFO)") }],
    });

    // Scanning is read-only, so it works with --root; without, the file's root cannot be trusted.
    const scan = cli(["scan", "--json", "--root", root, ...config], env);
    expect(scan.status, scan.stderr).toBe(0);
    expect(JSON.parse(scan.stdout).summary.sessionCount).toBe(1);
    const unrooted = cli(["scan", ...config], env);
    expect(unrooted.status).toBe(2);
    expect(unrooted.stderr).toContain(`cannot be trusted while the file is invalid`);
  });

  it("serve starts, and the dashboard shows the problem (read-only)", async () => {
    const { root, fifo, env } = setUp();
    const server = await startServe(["--no-open", "--root", root, "--config", fifo], env);
    try {
      const response = await fetch(`${server.base}/api/summary`, {
        headers: { Authorization: `Bearer ${server.token}` },
      });
      const { policy } = (await response.json()) as {
        policy: { readOnly: boolean; problems: Array<{ path: string; message: string }> };
      };
      expect(policy.readOnly).toBe(true);
      expect(policy.problems.map((p) => `${p.path}: ${p.message}`)[0]).toMatch(
        /^\(file\): is a named pipe \(FIFO\), not a regular file/,
      );
    } finally {
      await server.stop();
    }
  });
});

describe("other unusable files as the config", () => {
  it("/dev/zero: refused at once, with bounded memory", () => {
    // Through runCli in a wrapper that reports the process's peak memory (the old read of
    // /dev/zero grew by gigabytes in seconds).
    const main = new URL("../../dist/server/cli/main.js", import.meta.url).href;
    const result = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { runCli } = await import(${JSON.stringify(main)});
         process.exitCode = await runCli(process.argv.slice(1));
         process.stderr.write("maxRSS KB " + process.resourceUsage().maxRSS + "\\n");`,
        "--",
        "config",
        "check",
        "--config",
        "/dev/zero",
      ],
      { encoding: "utf8", timeout: 10_000 },
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      "invalid config /dev/zero:\n  (file): is a character device, not a regular file",
    );
    const maxRssKb = Number(/maxRSS KB (\d+)/.exec(result.stderr)?.[1]);
    expect(maxRssKb).toBeLessThan(300 * 1024);
  });

  it.each<[string, string | Buffer, RegExp]>([
    [
      "over 1 MB",
      JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
      /\(file\): is 1\.00 MiB \(\d+ bytes\), over the limit of 1\.00 MiB \(1048576 bytes\)/,
    ],
    [
      "invalid UTF-8 in a protected pattern",
      Buffer.concat([
        Buffer.from('{ "protection": { "protectedPatterns": ["*d'),
        Buffer.from([0xe9]),
        Buffer.from('ploy*"] } }'),
      ]),
      /\(file\): is not valid UTF-8: byte 0xe9 at offset 43 \(line 1, column 44\); save it as UTF-8/,
    ],
    ["a byte order mark", '\uFEFF{ "mode": "off" }', /\(file\): starts with a byte order mark \(BOM\)/],
  ])("%s: config check and plan say so", (_what, content, problem) => {
    const { root, env } = setUp();
    const file = join(mkdtempSync(join(tmpdir(), "sr-unusable-")), "config.json");
    writeFileSync(file, content);
    for (const args of [
      ["config", "check"],
      ["plan", "--root", root],
    ]) {
      const result = cli([...args, "--config", file], env);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(problem);
      expect(result.stderr).toContain("Running read-only");
    }
  });
});
