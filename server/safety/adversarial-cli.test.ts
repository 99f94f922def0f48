// The command line against hostile places (test-support/hostile-home.ts): every store-root flag of
// every command (scan, plan, clean --root and --store, prune, serve), and every folder the config
// names — in the file or as --set — through config check, clean and serve, pointed at `/`, system
// folders, the account's home, home itself (also spelled through `..`, relative, or via a symlink),
// an ancestor of it, `""`, `.`, a root inside another, inside the quarantine or the desktop trash,
// and quarantines at `/`, home, its top level or inside a store. Each attempt must be refused with
// the rule it breaks and the real path it was judged as (exit 2; serve before it listens), and
// must leave every file of the sandbox — home, stores, quarantine, desktop trash — as it was.
//
// Safety for the machine the tests run on: places outside the sandbox (`/`, `/etc`, `/usr`, the
// account's home, links to them) are tried with --dry-run only, so even a broken gate would move
// nothing of this machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BAIT_SESSION,
  byName,
  configOf,
  type HostileConfig,
  CONTROL_CHARACTERS,
  expectNamed,
  hostileConfigs,
  hostileWorkspaceAttempts,
  hostileSandbox,
  hostileStoreAttempts,
  type StoreKind,
  unchangedBy,
  writeBaitConfig,
} from "../../test-support/hostile-home.js";
import { BIN } from "../../test-support/serve-child.js";
import { treeChanges } from "../../test-support/tree-snapshot.js";
import { canRunAsNobody, publicLinks, runAsNobody } from "../../test-support/unprivileged.js";
import { runCli } from "../cli/main.js";
import { runningInstance } from "../http/instance.js";
import { statePaths } from "../state/state-dir.js";

const box = hostileSandbox();

// `.` must name a folder full of bait: the current folder is the sandbox's `work`.
let cwd: string;
beforeAll(() => {
  cwd = process.cwd();
  process.chdir(box.work);
});
afterAll(() => process.chdir(cwd));

/** Runs one command in this process; a serve that got past the gate is stopped and reported. */
async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // A serve past the gate says so: it prints its address once it listens.
  let listened: (status: "listening") => void = () => {};
  const listening = new Promise<"listening">((resolve) => (listened = resolve));
  const run = runCli(argv, {
    stdout: (t) => {
      out.push(t);
      if (t.startsWith("session-retention dashboard: ")) listened("listening");
    },
    stderr: (t) => err.push(t),
  });
  const status = await Promise.race([run, listening]);
  if (status === "listening") {
    process.emit("SIGTERM"); // serve's own handler closes the server
    await run;
  }
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

const roots = (roots: string[]) => roots.flatMap((root) => ["--root", root]);
const stores = (kind: StoreKind, roots: string[]) => roots.flatMap((root) => ["--store", `${kind}:${root}`]);
const confirm = (dry: boolean) => (dry ? "--dry-run" : "--yes");

/** A command that takes store roots of one kind; `dry` asks a destructive one for --dry-run instead of --yes. */
interface Command {
  name: string;
  kind: StoreKind;
  argv: (given: string[], dry: boolean) => string[];
}

const commands: Command[] = [
  { name: "scan --root X", kind: "pi", argv: (given) => ["scan", ...roots(given)] },
  { name: "plan --root X", kind: "pi", argv: (given) => ["plan", ...roots(given)] },
  {
    name: "clean --root X --yes",
    kind: "pi",
    argv: (given, dry) => ["clean", ...roots(given), confirm(dry)],
  },
  {
    name: "clean --store agentsh:X --yes",
    kind: "agentsh",
    argv: (given, dry) => ["clean", ...stores("agentsh", given), confirm(dry)],
  },
  {
    name: "prune --store workspace:X --older-than 1h --yes",
    kind: "workspace",
    argv: (given, dry) => ["prune", ...stores("workspace", given), "--older-than", "1h", confirm(dry)],
  },
  {
    name: "serve --root X --port 0 --no-open",
    kind: "pi",
    argv: (given) => ["serve", ...roots(given), "--port", "0", "--no-open"],
  },
];

describe.each(byName(commands))("%s", (_, command) => {
  for (const { name, attempt } of hostileStoreAttempts(box)) {
    it(`refuses ${name}; nothing changes`, async () => {
      const { roots: given, system, ...refusal } = attempt(command.kind);
      const { status, stdout, stderr } = await unchangedBy(box, () => cli(command.argv(given, system)));
      expect(status).toBe(2);
      expectNamed(stderr, refusal, "flag");
      if (command.name.startsWith("serve")) {
        expect(stdout).not.toContain("dashboard:");
        expect(runningInstance(statePaths().dir)).toBeUndefined();
      }
    });
  }
});

/** How a hostile folder reaches the config: in the file, or as `--set KEY=VALUE` over a harmless file. */
const channels = [
  { name: "in the config file", file: configOf, sets: () => [] },
  {
    name: "--set",
    file: () => ({}),
    sets: (c: HostileConfig) => ["--set", `${c.key}=${JSON.stringify(c.value)}`],
  },
];

/** Every command that reads the config's folders; `dry` asks clean for --dry-run instead of --yes. */
const configCommands = [
  { name: "config check", argv: () => ["config", "check"] },
  { name: "clean", argv: (dry: boolean) => ["clean", confirm(dry)] },
  { name: "serve", argv: () => ["serve", "--port", "0", "--no-open"] },
];

describe.each(byName(channels))("a hostile folder %s", (_, channel) => {
  afterAll(() => writeBaitConfig());
  describe.each(byName(configCommands))("%s", (_, command) => {
    for (const c of hostileConfigs(box)) {
      // config check reports every problem itself; the others name the file's problems first.
      it(`${c.name} → exit 2 naming it, nothing changes`, async () => {
        writeBaitConfig(channel.file(c));
        const { status, stdout, stderr } = await unchangedBy(box, () =>
          cli([...command.argv(c.system), ...channel.sets(c)]),
        );
        expect(status).toBe(2);
        expect(stdout).not.toContain("dashboard:");
        if (command.name !== "config check") return expectNamed(stderr, c, "config");
        const line = stderr.split("\n").find((l) => l.trimStart().startsWith(`${c.at}: `));
        expect(line, stderr).toBeDefined();
        expectNamed(line!, c, "config");
      });
    }
  });
});

describe("a root in which nothing is recognised", () => {
  it("scan --root ~/code exits 0 and lists no session; each entry there is said to be no session", async () => {
    const { status, stdout } = await cli(["scan", "--root", `${box.home}/code`, "--no-cache", "--json"]);
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as {
      sessions: unknown[];
      problems: Array<{ code: string; path: string }>;
    };
    expect(report.sessions).toEqual([]);
    expect(report.problems.map((p) => [p.code, p.path]).sort()).toEqual([
      ["not-a-session", `${box.home}/code/app`],
      ["not-a-session", `${box.home}/code/sandbox`],
    ]);
  });

  it("scan --root ~/code says plainly that nothing there is a session of a pi store", async () => {
    const root = `${box.home}/code`;
    const { status, stdout } = await cli(["scan", "--root", root, "--no-cache"]);
    const where = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(status).toBe(0);
    expect(stdout).toMatch(/Total: 0 sessions/);
    expect(stdout).toMatch(
      new RegExp(
        `(nothing|no file or folder) in ${where} is a (pi )?session|no pi sessions? (found )?in ${where}`,
        "i",
      ),
    );
  });
});

// Node's own recursive mkdir spins for ever under procfs, so a state folder there (a careless
// PI_CODING_AGENT_DIR) once hung `serve` and `scan` at full CPU. Each command runs as a real process
// with a time limit, so that a regression fails instead of hanging the test run.
describe("a state folder that leads into /proc", () => {
  it.skipIf(!existsSync("/proc/self")).each<[string, string[]]>([
    ["serve", ["serve", "--port", "0", "--no-open"]],
    ["scan", ["scan", "--root", box.work, "--no-cache"]],
  ])("%s ends at once, and says which folder it could not make when it needs one", (_, argv) => {
    const child = spawnSync(process.execPath, [BIN, ...argv], {
      encoding: "utf8",
      timeout: 15_000,
      env: { ...process.env, PI_CODING_AGENT_DIR: "/proc/self/not-here", BROWSER: "true" },
    });
    expect(child.signal, "killed by the time limit: it hung").toBeNull();
    if (child.status !== 0) {
      expect(child.status).toBe(2);
      expect(child.stderr).toMatch(/cannot create the folder \/proc\/self\/not-here\S*: ENOENT/);
      expect(child.stderr).not.toMatch(/\n\s+at /); // one line, no stack
    }
  });
});

/** What a refused write must leave on stderr: the refusal, one line, never a stack. */
const expectOneLine = (stderr: string) => {
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
};

/** The workspace metadata writers: each may only write into a workspace the gate allows. */
const metadataCommands = [
  { name: "touch X", argv: (dir: string) => ["touch", dir] },
  { name: "repair-metadata X", argv: (dir: string) => ["repair-metadata", dir] },
  { name: "repair-metadata X --dry-run", argv: (dir: string) => ["repair-metadata", dir, "--dry-run"] },
];

describe.each(byName(metadataCommands))("%s", (_, command) => {
  for (const attempt of hostileWorkspaceAttempts(box).filter((a) => !a.system))
    it(`refuses ${attempt.name}; nothing is written`, async () => {
      const { status, stderr } = await unchangedBy(box, () => cli(command.argv(attempt.given)));
      expect(status).toBe(2);
      expectNamed(stderr, attempt, "flag");
      expectOneLine(stderr);
    });

  // `/`, /etc, the account's home and links to them: as nobody, who could not write there even if
  // the gate let the command through, and with a time limit, should it walk `/` to repair it.
  const links = canRunAsNobody ? publicLinks() : undefined;
  for (const attempt of hostileWorkspaceAttempts(box).filter((a) => a.system))
    it.skipIf(!canRunAsNobody)(`refuses ${attempt.name}, as an unprivileged user`, () => {
      const given =
        attempt.given === box.links.root
          ? links!.root
          : attempt.given === box.links.etc
            ? links!.etc
            : attempt.given;
      const metadata = join(attempt.resolved!, ".metadata.json");
      const there = existsSync(metadata);
      const account = hostileWorkspaceAttempts(box).find((a) => a.system && a.rule === "home");
      const run = runAsNobody([BIN, ...command.argv(given)], {
        cwd: links!.folder,
        env: {
          HOME: account?.resolved ?? "/nonexistent",
          PI_CODING_AGENT_DIR: "/nonexistent/agent",
          XDG_DATA_HOME: "/nonexistent/share",
        },
      });
      expect(run.signal, "killed by the time limit").toBeNull();
      expect(run.status, run.stderr).toBe(2);
      expectNamed(run.stderr, attempt, "flag");
      expectOneLine(run.stderr);
      expect(existsSync(metadata)).toBe(there);
    });
});

describe("read-only: an invalid config refuses every change to a store", () => {
  afterAll(() => writeBaitConfig());
  const workspace = () => join(box.workspaces, "ws-1");
  it.each<[string, () => string[]]>([
    ["touch", () => ["touch", workspace()]],
    // A folder with no metadata: a repair would write it.
    ["repair-metadata", () => ["repair-metadata", join(box.work, "proxy")]],
  ])("%s → exit 2, read-only said; nothing is written", async (_, argv) => {
    writeBaitConfig({ quota: { warnRatio: 5 } });
    const { status, stderr } = await unchangedBy(box, () => cli(argv()));
    expect(status).toBe(2);
    expect(stderr).toMatch(/^session-retention: read-only: /);
    expect(stderr).toContain("quota.warnRatio");
  });

  it("the same touch with the config fixed writes the workspace's metadata, and only it", async () => {
    writeBaitConfig();
    const before = box.snapshot();
    const { status, stderr } = await cli(["touch", workspace()]);
    expect(status, stderr).toBe(0);
    const changes = treeChanges(before, box.snapshot());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatch(new RegExp(`^changed: ${workspace()}/.metadata.json: `));
  });
});

describe("a control character in a path", () => {
  afterAll(() => writeBaitConfig());
  const flags: Array<[string, (path: string) => string[]]> = [
    ["scan --root", (path) => ["scan", "--root", path]],
    ["clean --store agentsh:", (path) => ["clean", "--store", `agentsh:${path}`, "--yes"]],
    ["plan --config", (path) => ["plan", `--config=${path}`]],
    ["metrics --textfile", (path) => ["metrics", "--root", box.piStore, "--textfile", path]],
    ["report --out", (path) => ["report", "--root", box.piStore, "--out", path]],
  ];
  describe.each(flags)("%s", (flag, argv) => {
    it.each(CONTROL_CHARACTERS.map(([char, name]) => [name, char]))(
      "holding %s → exit 2 naming the flag; nothing changes",
      async (_, char) => {
        const { status, stderr } = await unchangedBy(box, () => cli(argv(`${box.work}/a${char}b`)));
        expect(status).toBe(2);
        expect(stderr).toContain(`${flag.split(" ")[1]} "`);
        expect(stderr).toMatch(/holds the control character U\+[0-9A-F]{4} .*\(rule control-character\)/);
        expectOneLine(stderr);
      },
    );
  });

  it.each(CONTROL_CHARACTERS.map(([char, name]) => [name, char]))(
    "deletion.quarantineDir holding %s: config check exits 2 naming it, in the file and as --set",
    async (_, char) => {
      const quarantineDir = `${box.work}/q${char}`;
      writeBaitConfig({ deletion: { quarantineDir } });
      const inFile = await cli(["config", "check"]);
      writeBaitConfig();
      const set = await cli([
        "config",
        "check",
        "--set",
        `deletion.quarantineDir=${JSON.stringify(quarantineDir)}`,
      ]);
      for (const { status, stderr } of [inFile, set]) {
        expect(status).toBe(2);
        const line = stderr.split("\n").find((l) => l.trimStart().startsWith("deletion.quarantineDir: "));
        expect(line, stderr).toMatch(/\(rule control-character\)/);
      }
    },
  );
});

// Last, as it moves things: without it, every refusal above could pass because there was nothing
// a command would have moved anyway.
describe("the bait is real", () => {
  it.each<[string, (root: string) => string[], string]>([
    ["clean --root", (root) => ["clean", "--root", root, "--yes"], BAIT_SESSION],
    ["clean --store agentsh:", (root) => ["clean", "--store", `agentsh:${root}`, "--yes"], "proxy"],
    [
      "prune --store workspace:",
      (root) => ["prune", "--store", `workspace:${root}`, "--older-than", "1h", "--yes"],
      "sandbox-ws",
    ],
  ])("%s at an ordinary folder holding the same bait moves it", async (_, argv, bait) => {
    const { status, stderr } = await cli(argv(box.work));
    expect(status, stderr).toBe(0);
    expect(existsSync(join(box.work, bait))).toBe(false);
  });
});
