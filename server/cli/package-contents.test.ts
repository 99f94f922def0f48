// What `npm publish` would ship: the command, the server, the web app and the pi extension, and
// none of the compiled tests, benchmarks or tool configs that `tsc -b` also writes to dist/ — nor
// any source map (tsc keeps writing them for stack traces in development; the web build writes none).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const viteBin = join(repo, "node_modules", "vite", "bin", "vite.js");

describe("the published package", () => {
  it("holds what runs and nothing that only tests or measures it, and no source map", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "silent" },
    });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    const manifest = JSON.parse(readFileSync(`${repo}/package.json`, "utf8")) as {
      bin: Record<string, string>;
      pi: { extensions: string[] };
    };
    for (const entry of [...Object.values(manifest.bin), ...manifest.pi.extensions])
      expect(files).toContain(entry.replace(/^\.\//, ""));
    expect(files).toContain("dist/server/cli/main.js");
    // What a user reads before installing: the licence the manifest names, and what changed.
    for (const doc of ["README.md", "LICENSE", "CHANGELOG.md", "package.json"]) expect(files).toContain(doc);
    expect(
      files.filter((f) => /\.test\.|^dist\/(bench|e2e|test-support|\.tsbuildinfo)\/|\.config\./.test(f)),
    ).toEqual([]);
    // tsc -b has written dist/server/cli/main.js.map: the package leaves it out.
    expect(readdirSync(join(repo, "dist", "server", "cli"))).toContain("main.js.map");
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  });

  it("names its repository, and its README shows only images that load outside the repository", () => {
    const manifest = JSON.parse(readFileSync(`${repo}/package.json`, "utf8")) as {
      repository: { url: string };
      homepage: string;
      bugs: { url: string };
    };
    const home = "https://github.com/session-retention/session-retention";
    expect(manifest.repository.url).toBe(`git+${home}.git`);
    expect(manifest.homepage.startsWith(home)).toBe(true);
    expect(manifest.bugs.url).toBe(`${home}/issues`);
    // The tarball has no docs/screenshots: a relative image is broken on npmjs.com and in
    // node_modules. Each image is an absolute URL of a screenshot that exists in this repository.
    const readme = readFileSync(`${repo}/README.md`, "utf8");
    const images = [
      ...[...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1]!),
      ...[...readme.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!),
    ];
    const raw = "https://raw.githubusercontent.com/session-retention/session-retention/main/";
    for (const image of images) {
      expect(image.startsWith(raw), image).toBe(true);
      expect(existsSync(join(repo, image.slice(raw.length))), image).toBe(true);
    }
  });

  it("the installed dependencies satisfy every declared range, peers included (npm ls --all)", () => {
    // @tanstack/preact-store asks for preact 10 while the app runs preact 11; package.json's
    // "overrides" says so, which is also what keeps `npm install` free of an ERESOLVE warning.
    execFileSync("npm", ["ls", "--all"], {
      cwd: repo,
      stdio: "ignore",
      env: { ...process.env, npm_config_loglevel: "silent" },
    });
  });

  it("the production web build (vite build) emits no source maps and prints no warning", () => {
    const outDir = mkdtempSync(join(tmpdir(), "sr-web-build-"));
    // stderr joined to stdout: the bundler prints its warnings on either. NODE_ENV as `npm run build`
    // has it (vitest sets "test", which would bundle preact's debug build instead).
    const printed = execFileSync(
      "sh",
      ["-c", `"$0" "$1" build --outDir "$2" --emptyOutDir 2>&1`, process.execPath, viteBin, outDir],
      { cwd: repo, encoding: "utf8", env: { ...process.env, NODE_ENV: "production", NO_COLOR: "1" } },
    );
    expect(printed).toContain("built in");
    expect(printed).not.toMatch(/\(!\)|warn|MODULE_LEVEL_DIRECTIVE|use client/i);
    const built = readdirSync(outDir, { recursive: true }).map(String);
    expect(built.some((f) => f.endsWith(".js"))).toBe(true);
    expect(built.filter((f) => f.endsWith(".map"))).toEqual([]);
    for (const js of built.filter((f) => f.endsWith(".js")))
      expect(readFileSync(join(outDir, js), "utf8")).not.toContain("sourceMappingURL");
  });

  it('the build silences only the "use client" directive warning, and passes on every other', async () => {
    const config = (await import("../../vite.config.js")).default as {
      build: { rolldownOptions: { onwarn: (warning: object, warn: (w: object) => void) => void } };
    };
    const passed: object[] = [];
    const onwarn = (warning: object) => config.build.rolldownOptions.onwarn(warning, (w) => passed.push(w));
    onwarn({
      code: "MODULE_LEVEL_DIRECTIVE",
      message: 'Module level directive "use client" may not be preserved',
    });
    expect(passed).toEqual([]);
    const others = [
      {
        code: "MODULE_LEVEL_DIRECTIVE",
        message: 'Module level directive "use strict-ish" may not be preserved',
      },
      { code: "CIRCULAR_DEPENDENCY", message: 'Circular dependency "use client"' },
    ];
    for (const other of others) onwarn(other);
    expect(passed).toEqual(others);
  });
});
