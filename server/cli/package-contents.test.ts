// What `npm publish` would ship: the command, the server, the web app and the pi extension, and
// none of the compiled tests, benchmarks or tool configs that `tsc -b` also writes to dist/.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));

describe("the published package", () => {
  it("holds what runs and nothing that only tests or measures it", () => {
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
    expect(
      files.filter((f) => /\.test\.|^dist\/(bench|e2e|test-support|\.tsbuildinfo)\/|\.config\./.test(f)),
    ).toEqual([]);
  });
});
