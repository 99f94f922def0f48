// Which processes are pi's CLI: the command-line matcher on the ways pi is started, and /proc read for
// real processes spawned here — one that takes pi's title as pi's CLI does, one running a script
// where pi's package keeps its CLI, and look-alikes that are not pi. The real pi is in
// pi-running.test.ts. Not shown here: a pid taken by another process between two reads of /proc
// (no real process can be made to do that on cue); `runningPi` reads the start time around the
// other reads for it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../../../test-support/pi-tmux.js";
import { isPiCommand, runningPi } from "./pi-processes.js";

const fresh = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const comm = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
};
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
};

/** A process in `cwd` that takes the title `pi` as pi's CLI does first thing, once /proc shows it so. */
async function titledPi(cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, ["-e", 'process.title = "pi"; setInterval(() => {}, 1000);'], {
    cwd,
    env,
    stdio: "ignore",
  });
  children.push(child);
  await until(
    () => comm(child.pid!) === "pi",
    () => "the process never took pi's title",
  );
  return child.pid!;
}

/** `node <dir>/<script>` in `cwd` (a script that only waits), once /proc shows it. */
async function script(relative: string, cwd: string) {
  const file = join(fresh("sr-bin-"), relative);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "setInterval(() => {}, 1000);\n");
  const child = spawn(process.execPath, [file], { cwd, stdio: "ignore" });
  children.push(child);
  await until(
    () => cmdline(child.pid!).includes(file),
    () => `/proc never showed ${file}`,
  );
  return child.pid!;
}

describe("isPiCommand", () => {
  it("knows pi's CLI however it is started, and nothing else by its name alone", () => {
    const yes = [
      ["pi"], // the title pi's CLI takes as it starts: the whole command line becomes "pi"
      ["/usr/local/bin/pi", "--continue"], // the compiled binary
      ["node", "/usr/local/bin/pi", "-c"], // npm's link, run by its shebang
      ["/usr/bin/node", "/usr/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", "--model", "x"],
      ["node", "--max-old-space-size=8192", "/home/me/.npm/_npx/1a2b/node_modules/.bin/pi"], // npx's copy
      ["node", "--import", "/x/register.js", "/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"],
      ["bun", "/x/pi-coding-agent/dist/bun/cli.js"],
      ["node", "--", "/opt/pi/bin/pi"],
    ];
    const no = [
      ["vim", "pi"],
      ["sh", "-c", "pi"],
      ["npm exec pi"], // npm's title while it runs pi through npx: the pi it starts is found instead
      ["node", "/home/me/pi-notes.js"],
      ["node", "/x/pip"],
      ["node", "--require", "/x/pi", "server.js"],
      ["node", "/work/session-retention/bin/session-retention.js", "scan"],
      ["python3", "/usr/local/bin/pi"],
      ["pip", "install", "pi"],
      [],
    ];
    expect(yes.map(isPiCommand)).toEqual(yes.map(() => true));
    expect(no.map(isPiCommand)).toEqual(no.map(() => false));
  });
});

describe.runIf(process.platform === "linux")("runningPi", () => {
  it("finds a process with pi's title and one running pi's CLI script, with their folder, start and stores", async () => {
    const project = fresh("sr-project-");
    const before = Date.now();
    const titled = await titledPi(project);
    const viaScript = await script("node_modules/@mariozechner/pi-coding-agent/dist/cli.js", project);
    const stores = [join(process.env.PI_CODING_AGENT_DIR!, "sessions")];
    const found = runningPi().filter((pi) => pi.pid === titled || pi.pid === viaScript);
    expect(found.map((pi) => pi.pid).sort()).toEqual([titled, viaScript].sort());
    for (const pi of found) {
      expect(pi.cwd).toBe(project);
      expect(pi.stores).toEqual(stores);
      // /proc's start is to 10 ms from a boot time in whole seconds.
      expect(pi.startedMs).toBeGreaterThan(before - 2000);
      expect(pi.startedMs).toBeLessThan(Date.now() + 1000);
    }
  });

  it("passes over look-alikes, and the process that asks (the extension runs inside pi)", async () => {
    const project = fresh("sr-project-");
    const others = [
      await script("pi-notes.js", project),
      await script("pip", project),
      await script("bin/session-retention.js", project),
    ];
    const titled = await titledPi(project);
    const pids = runningPi(titled).map((pi) => pi.pid);
    expect(pids).not.toContain(titled);
    for (const pid of others) expect(pids).not.toContain(pid);
    expect(runningPi().map((pi) => pi.pid)).toContain(titled);
  });

  it("reads the stores from the process's own environment, custom session dir included", async () => {
    const project = fresh("sr-project-");
    const home = fresh("sr-other-home-");
    const custom = fresh("sr-custom-sessions-");
    const pid = await titledPi(project, { HOME: home, PI_CODING_AGENT_SESSION_DIR: custom });
    expect(runningPi().find((pi) => pi.pid === pid)?.stores).toEqual([
      join(home, ".pi", "agent", "sessions"),
      custom,
    ]);
  });

  it("reports the folder of a pi whose folder was removed under it by its path", async () => {
    const project = fresh("sr-project-");
    const pid = await titledPi(project);
    rmSync(project, { recursive: true });
    expect(runningPi().find((pi) => pi.pid === pid)?.cwd).toBe(project);
  });
});
