// The documentation is part of the product: the README stays short, every link in it and in docs/
// leads somewhere, no file cites a document that is not in the repository, and docs/safety.md —
// the promise that nothing is lost — names tests that exist, for every guarantee.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), "utf8");
const pages = [
  "README.md",
  ...readdirSync(join(repo, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Markdown without its code: fenced blocks and inline code spans can show link-like text. */
function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = title!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

describe("README.md", () => {
  it("is under 15 KB and has a table of contents", () => {
    expect(statSync(join(repo, "README.md")).size).toBeLessThan(15_000);
    expect(read("README.md")).toMatch(/^## Contents$/m);
  });

  it("links every page of docs/", () => {
    const readme = read("README.md");
    const unlinked = pages.filter((page) => page.startsWith("docs/") && !readme.includes(`](${page})`));
    expect(unlinked).toEqual([]);
  });
});

describe("each page of docs/", () => {
  // architecture.md is written to its own brief (the layers of the code), not to this one.
  const reference = pages.filter((page) => page.startsWith("docs/") && page !== "docs/architecture.md");

  it("says whom it is for in its first line, and has a table of contents when it is long", () => {
    const wrong = reference.filter((page) => {
      const text = read(page);
      const first = text.split("\n").find((line, i) => i > 0 && line.trim() !== "") ?? "";
      return !first.startsWith("For ") || (text.length > 8_000 && !/^## Contents$/m.test(text));
    });
    expect(reference.length).toBeGreaterThanOrEqual(9);
    expect(wrong).toEqual([]);
  });
});

describe("links in README.md and docs/", () => {
  it("every relative link resolves to a file of the repository, and every anchor to a heading", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const file = path ? resolve(repo, dirname(page), path) : join(repo, page);
        if (relative(repo, file).startsWith("..") || !existsSync(file)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the anchor rule is GitHub's", () => {
    expect(anchors("## `protect` / `unprotect`\n## Claude Code at 20,000 sessions\n# A\n# A")).toEqual(
      new Set(["protect--unprotect", "claude-code-at-20000-sessions", "a", "a-1"]),
    );
  });
});

/** The repository's own text files, as a fresh clone has them (no dependencies, builds or reports). */
function repositoryFiles(dir = repo): string[] {
  const skip = new Set([
    ".git",
    "node_modules",
    "dist",
    "test-results",
    "test-reports",
    "playwright-report",
    ".bench",
  ]);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : repositoryFiles(path);
    return entry.isFile() && /\.(ts|tsx|js|mjs|json|md|css|html|yml|yaml|sh)$|^run$/.test(entry.name)
      ? [path]
      : [];
  });
}

describe("code the docs name", () => {
  // A file moved (as the layers of server/ were) must not leave a page pointing at its old place.
  const named = (text: string) =>
    [
      ...text.matchAll(
        /`((?:server|shared|web|extension|test-support|bench|e2e|bin)\/[\w./{},-]+\.(?:tsx?|js|json|css))`/g,
      ),
    ].flatMap((match) => expand(match[1]!));

  it("finds what it looks for", () => {
    expect(named("see `server/{a,b}.ts` and `shared/c.ts`, not `server/x`")).toEqual([
      "server/a.ts",
      "server/b.ts",
      "shared/c.ts",
    ]);
  });

  it("exists, in every page", () => {
    const missing = pages.flatMap((page) =>
      named(read(page))
        .filter((path) => !existsSync(join(repo, path)))
        .map((path) => `${page}: ${path}`),
    );
    expect(pages.flatMap((page) => named(read(page))).length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

describe("no file cites a document outside the repository", () => {
  // Built from parts so that this file does not cite them itself.
  const outside = [
    new RegExp(["spec", "\\s*§"].join("")),
    /§\s*\d/,
    new RegExp(["\\bspec", " 0\\d\\d\\b"].join("")),
    new RegExp(["\\b(SAFETY", "FACTS", "PRODUCT", "ARCHITECTURE", "AGENT-STORES)\\.md\\b"].join("|")),
    // `../shared` as a place to read, not the repository's shared/ folder in an import path.
    new RegExp(["\\.\\./shared", "(/[\\w.-]*\\.(md|txt)\\b|(?=[\\s),;:]|$))"].join(""), "m"),
  ];

  it("finds what it looks for", () => {
    const cites = (text: string) => outside.some((pattern) => pattern.test(text));
    expect(cites(["see the spec ", "§", "9.2"].join(""))).toBe(true);
    expect(cites(["as ../shared", "/SAFE", "TY.md says"].join(""))).toBe(true);
    expect(cites(["read ../shared", " first"].join(""))).toBe(true);
    expect(cites('import { x } from "../shared/api.js";')).toBe(false);
    expect(cites('"references": [{ "path": "../shared" }]')).toBe(false);
    expect(cites("docs/safety.md G3")).toBe(false);
  });

  it("in any source, test, script or document", () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(100);
    const citing = files
      .filter((file) => outside.some((pattern) => pattern.test(readFileSync(file, "utf8"))))
      .map((file) => relative(repo, file));
    expect(citing).toEqual([]);
  });
});

/** `a/{b,c}.test.ts` → `a/b.test.ts`, `a/c.test.ts`. */
function expand(path: string): string[] {
  const brace = /\{([^}]+)\}/.exec(path);
  if (!brace) return [path];
  return brace[1]!.split(",").flatMap((part) => expand(path.replace(brace[0], part)));
}

/** Test files a text names (`server/x.test.ts`, `e2e/y.spec.ts`), each with the titles quoted after `›`. */
function testReferences(text: string): Array<{ files: string[]; titles: string[] }> {
  const flat = text.replace(/\s+/g, " ");
  const references = [];
  for (const match of flat.matchAll(
    /`([\w./{},-]+\.(?:test|spec)\.tsx?)`( › "[^"]+"(?:,? (?:and )?"[^"]+")*)?/g,
  )) {
    const titles = [...(match[2] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!.replace(/…$/, ""));
    references.push({ files: expand(match[1]!), titles });
  }
  return references;
}

describe("docs/safety.md", () => {
  const page = read("docs/safety.md");

  it("names, for every guarantee, at least one test", () => {
    const guarantees = page.split(/(?=\*\*G\d+\.)|(?=\n## )/).filter((part) => part.startsWith("**G"));
    expect(guarantees.length).toBeGreaterThanOrEqual(16);
    const untested = guarantees
      .filter((text) => testReferences(text).length === 0)
      .map((t) => t.slice(0, 40));
    expect(untested).toEqual([]);
  });

  it("names only test files that exist, and test titles that are in them", () => {
    const references = testReferences(page);
    expect(references.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { files, titles } of references) {
      for (const file of files) {
        if (!existsSync(join(repo, file))) {
          wrong.push(`${file}: no such file`);
          continue;
        }
        const source = read(file).replace(/\s+/g, " ");
        for (const title of titles)
          if (!source.includes(title)) wrong.push(`${file}: no test titled "${title}"`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
