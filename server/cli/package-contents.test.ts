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

  it("the production web build (vite build) emits no source maps", () => {
    const outDir = mkdtempSync(join(tmpdir(), "sr-web-build-"));
    execFileSync(
      process.execPath,
      [
        join(repo, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "--outDir",
        outDir,
        "--emptyOutDir",
        "--logLevel",
        "error",
      ],
      { cwd: repo, encoding: "utf8" },
    );
    const built = readdirSync(outDir, { recursive: true }).map(String);
    expect(built.some((f) => f.endsWith(".js"))).toBe(true);
    expect(built.filter((f) => f.endsWith(".map"))).toEqual([]);
    for (const js of built.filter((f) => f.endsWith(".js")))
      expect(readFileSync(join(outDir, js), "utf8")).not.toContain("sourceMappingURL");
  });
});
