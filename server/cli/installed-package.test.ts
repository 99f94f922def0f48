// The package as a user gets it: `npm pack` in a clean copy of this checkout (its prepack builds
// everything), `npm install` of the tarball into an empty folder, and then the installed package
// at work — its command (--version, scan, plan, serve with the dashboard in a real Chromium), its pi
// extension in pi's real runtime, and its library API's types — on a store in the test's own home.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { beforeAll, describe, expect, it } from "vitest";
import { scriptedUi, SessionManager, startPi } from "../../test-support/pi-runtime.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { startServe } from "../../test-support/serve-child.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  name: string;
  version: string;
  pi: { extensions: string[] };
};
const DAY = 86_400_000;
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** npm with the machine's download cache (the test's HOME is empty): what it printed on each stream. */
function npm(args: string[], cwd: string): { stdout: string; stderr: string } {
  const done = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--no-update-notifier"], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      // Where `npm ci` put the packages: installing the tarball's dependencies needs no network then.
      npm_config_cache: process.env.npm_config_cache ?? join(userInfo().homedir, ".npm"),
      npm_config_prefer_offline: "true",
    },
  });
  if (done.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${done.stdout}${done.stderr}`);
  return { stdout: done.stdout, stderr: done.stderr };
}

/** Runs the installed command; its output and exit status. */
function run(bin: string, args: string[]): { stdout: string; stderr: string; status: number } {
  try {
    return { stdout: execFileSync(bin, args, { encoding: "utf8", stdio: "pipe" }), stderr: "", status: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; status: number };
    return { stdout: failed.stdout, stderr: failed.stderr, status: failed.status };
  }
}

let installed: string; // node_modules/session-retention of the install
let bin: string; // node_modules/.bin/session-retention
let project: string; // the install's own folder
let packed: string[]; // the tarball's file list
let installOutput: string;

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), "sr-tarball-"));
  // A clean copy: the files git knows (tracked, and new ones not ignored), no dist/ — as a clone.
  const clone = join(work, "clone");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && file !== "node_modules");
  for (const file of files) {
    mkdirSync(join(clone, dirname(file)), { recursive: true });
    try {
      cpSync(join(repo, file), join(clone, file));
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  symlinkSync(join(repo, "node_modules"), join(clone, "node_modules"));

  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  // The prepack build prints on stdout too, so the file list is read from the tarball itself.
  npm(["pack", "--pack-destination", tarballs], clone);
  const tarball = join(
    tarballs,
    readdirSync(tarballs).find((f) => f.endsWith(".tgz"))!,
  );
  packed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ""));

  project = join(work, "user-project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
  const install = npm(["install", tarball], project);
  installOutput = install.stdout + install.stderr;
  installed = join(project, "node_modules", manifest.name);
  bin = join(project, "node_modules", ".bin", "session-retention");
  // A whole build and an install: work for the cores, with nothing to wait for. They took ~3 min on a
  // loaded two-core machine (a test beside them); the limit is only there to end a hang.
}, 900_000);

describe("the package installed from its tarball", () => {
  it("was packed built: the command, the server, the dashboard and the extension, with its documents", () => {
    for (const file of [
      "bin/session-retention.js",
      "dist/server/cli/main.js",
      "dist/web/index.html",
      ...manifest.pi.extensions.map((e) => e.replace(/^\.\//, "")),
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
    ])
      expect(packed).toContain(file);
    expect(packed.filter((f) => f.endsWith(".map") || f.includes(".test."))).toEqual([]);
  });

  it("installs without a peer conflict or a warning (but the engine's, on a Node older than it asks)", () => {
    const oldNode = Number(process.versions.node.split(".")[0]) < 22;
    const warnings = installOutput
      .split("\n")
      .filter((line) => /warn|ERR/i.test(line))
      .filter((line) => !(oldNode && /EBADENGINE/.test(line)))
      // A machine's own npmrc may hold settings npm no longer knows (this one's ~/.npmrc has "nodedir",
      // which npm run/npx pass on as npm_config_nodedir, an "env config"): not the package's doing.
      .filter((line) => !/Unknown (user|global|builtin|project|env) config/.test(line));
    expect(installOutput).toMatch(/added \d+ packages?/);
    expect(warnings).toEqual([]);
  });

  it("--version prints the package's version", () => {
    expect(run(bin, ["--version"])).toEqual({ stdout: `${manifest.version}\n`, stderr: "", status: 0 });
  });

  describe("on a pi store of three sessions, two of them old", () => {
    const agentDir = () => process.env.PI_CODING_AGENT_DIR!;
    beforeAll(() => {
      const root = join(agentDir(), "sessions");
      mkdirSync(root, { recursive: true });
      [200, 100, 1].forEach((days, i) =>
        setModified(
          writeSession(root, `/work/p${i}`, 2).getSessionFile()!,
          new Date(Date.now() - days * DAY),
        ),
      );
      writeFileSync(
        join(agentDir(), "session-retention.json"),
        JSON.stringify({ retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 } }),
      );
    });

    it("scan finds the three and plan names the two old ones as candidates", () => {
      const scan = run(bin, ["scan", "--json"]);
      expect(scan.status).toBe(0);
      const scanned = JSON.parse(scan.stdout) as { sessions: Array<{ store: { kind: string } }> };
      expect(scanned.sessions.filter((s) => s.store.kind === "pi")).toHaveLength(3);

      const plan = run(bin, ["plan", "--json"]);
      expect(plan.status).toBe(0);
      const planned = JSON.parse(plan.stdout) as { candidates: Array<{ namespace: string; rule: string }> };
      expect(planned.candidates.map((c) => `${c.namespace} ${c.rule}`).sort()).toEqual([
        "/work/p0 maxAgeDays",
        "/work/p1 maxAgeDays",
      ]);
    });

    it("serve answers with the dashboard, whose overview shows the store's sessions in Chromium", async () => {
      const server = await startServe(["--no-open"], process.env, bin);
      const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
      try {
        const page = await browser.newPage();
        await page.goto(server.url);
        await expect
          .poll(() => page.getByTestId("overview-headline").textContent(), { timeout: 15_000 })
          .toMatch(/in 3 sessions/);
      } finally {
        await browser.close();
        await server.stop();
      }
    }, 60_000);

    it("pi's real runtime loads the extension from the installed package's pi manifest", async () => {
      const cwd = join(process.env.HOME!, "pi-project");
      mkdirSync(cwd, { recursive: true });
      const ui = scriptedUi();
      const pi = await startPi({
        cwd,
        sessionManager: SessionManager.create(cwd, join(agentDir(), "sessions", "--pi-project--")),
        ui: ui.ui,
        packageRoot: installed,
      });
      try {
        expect(pi.looks[0]!.sessionCount).toBe(3);
        expect(pi.looks[0]!.candidates.count).toBe(2);
      } finally {
        await pi.runtime.dispose();
      }
    }, 60_000);
  });

  // tsc type-checks Node's types too: 20 s on a loaded two-core machine, far past the default limit.
  it("its library API type-checks in a TypeScript program that imports it", { timeout: 300_000 }, () => {
    writeFileSync(
      join(project, "use.ts"),
      [
        `import { ConfigSchema, evaluatePolicy, pruneSessions, scanStores, type Config } from "${manifest.name}";`,
        `const config: Config = ConfigSchema.parse({});`,
        `export const used = [config, evaluatePolicy, pruneSessions, scanStores] as const;`,
        `export const pending: ReturnType<typeof scanStores> extends Promise<unknown> ? true : false = true;`,
        `// @ts-expect-error the package exports no such name (so its types are real, not any)`,
        `import { noSuchExport } from "${manifest.name}";`,
        `export const nothing = noSuchExport;`,
      ].join("\n"),
    );
    execFileSync(
      process.execPath,
      [
        join(repo, "node_modules", "typescript", "bin", "tsc"),
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--typeRoots",
        join(repo, "node_modules", "@types"),
        "use.ts",
      ],
      { cwd: project, encoding: "utf8", stdio: "pipe" },
    );
  });
});
