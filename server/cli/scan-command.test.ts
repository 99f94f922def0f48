// The scan command through runCli, as a script or a person would use it.
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ScanReportSchema } from "../../shared/scan-report.js";
import { writeClaudeTranscript } from "../../test-support/claude-transcript.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { line } from "../../test-support/store-steps.js";
import { tableRows } from "../../test-support/facts-db.js";
import { factsFileIn } from "../state/facts-store.js";
import { statePaths } from "../state/state-dir.js";
import { runCli } from "./main.js";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

function store() {
  const root = mkdtempSync(join(tmpdir(), "sr-cli-"));
  const old = writeSession(root, "/work/old", 1).getSessionFile()!;
  const big = writeSession(root, "/work/big project", 30, { name: "the big one" }).getSessionFile()!;
  const recent = writeSession(root, "/work/old", 2).getSessionFile()!;
  setModified(old, new Date("2025-01-01T00:00:00Z"));
  setModified(big, new Date("2025-06-01T00:00:00Z"));
  setModified(recent, new Date("2026-01-01T00:00:00Z"));
  return { root, old, big, recent };
}

describe("session-retention scan", () => {
  it("--json prints one document valid against the shared schema, sorted as asked", async () => {
    const { root, old, big, recent } = store();
    const lru = await run("scan", "--root", root, "--json");
    expect(lru.status).toBe(0);
    const report = ScanReportSchema.parse(JSON.parse(lru.stdout));
    expect(report.summary.sessionCount).toBe(3);
    expect(report.sessions.map((s) => s.path)).toEqual([old, big, recent]);
    expect(report.namespaces.map((n) => [n.namespace, n.sessionCount])).toEqual([
      ["/work/big project", 1],
      ["/work/old", 2],
    ]);
    const bySize = ScanReportSchema.parse(
      JSON.parse((await run("scan", "--root", root, "--json", "--sort", "size")).stdout),
    );
    expect(bySize.sessions[0]!.path).toBe(big);
    expect(bySize.summary.largest[0]).toMatchObject({ path: big, name: "the big one" });
  });

  it("prints a table and a totals line in human-readable bytes, with --top limiting the rows", async () => {
    const { root } = store();
    const { status, stdout } = await run("scan", "--root", root, "--top", "2");
    expect(status).toBe(0);
    expect(stdout).toContain("Sessions (least recently used first, 2 of 3):");
    expect(stdout).toMatch(/LAST USED\s+SIZE\s+MSGS\s+CREATED\s+NAMESPACE \/ TITLE/);
    expect(stdout).toContain("“the big one”");
    // An unnamed session is called by its first message, as pi's picker calls it.
    expect(stdout).toMatch(/\/work\/old {2}“question 0 in \/work\/old”/);
    expect(stdout).toMatch(/^Total: 3 sessions, [\d.]+ KiB \(\d+ bytes\) in 2 namespaces$/m);
  });

  it("prints the same table the warm way as a full scan does, before and after sessions grow and come", async () => {
    const { root, big } = store();
    const table = async (...args: string[]) =>
      (await run("scan", "--root", root, ...args)).stdout.replace(/^Scanned in .*$/m, "");
    const same = async (...args: string[]) =>
      expect(await table(...args)).toBe(await table("--no-cache", ...args));
    await run("scan", "--root", root); // the full way, which writes the table's rows
    const rows = [...tableRows(factsFileIn(statePaths().scanCache)).keys()];
    expect(rows.filter((path) => path.startsWith(`${root}/`))).toHaveLength(3);
    await same();
    await same("--sort", "size", "--top", "2");
    await same("--sort", "created", "--top", "1");
    appendFileSync(big, `${line("one more question", 99)}\n`);
    writeSession(root, "/work/new", 2);
    await same();
    await same("--sort", "size");
    await same("--sort", "created");
  });

  it("with more than one agent: an AGENT column and a table of agents; with pi alone, neither", async () => {
    const { root } = store();
    const claude = mkdtempSync(join(tmpdir(), "sr-cli-claude-"));
    writeClaudeTranscript(claude, {
      id: "5d0c8a52-3b5e-4f63-9c3e-2f0b6d1a7e11",
      cwd: "/work/api",
      modified: new Date("2026-01-02T00:00:00Z"),
    });
    const both = await run("scan", "--store", `pi:${root}`, "--store", `claude:${claude}`);
    expect(both.status).toBe(0);
    expect(both.stdout).toMatch(/LAST USED\s+SIZE\s+MSGS\s+CREATED\s+AGENT\s+NAMESPACE \/ TITLE/);
    expect(both.stdout).toMatch(/\s+Claude Code\s+\/work\/api/);
    const agents = both.stdout.slice(both.stdout.indexOf("Agents:")).split("\n").slice(1, 4);
    expect(agents[0]).toMatch(/SIZE\s+SESSIONS\s+LAST USED\s+AGENT/);
    // Largest first: pi's three sessions, then Claude Code's one.
    expect(agents[1]).toMatch(/\s3\s+\S+ ago\s+pi$/);
    expect(agents[2]).toMatch(/\s1\s+\S+ ago\s+Claude Code$/);
    const piOnly = await run("scan", "--root", root);
    expect(piOnly.stdout).not.toContain("AGENT");
    expect(piOnly.stdout).not.toContain("Agents:");
  });

  it.each([
    ["a missing root", (dir: string) => join(dir, "nope"), /does not exist/],
    [
      "a file as root",
      (dir: string) => {
        const file = join(dir, "file.jsonl");
        writeFileSync(file, "");
        return file;
      },
      /is not a folder/,
    ],
  ])("exits 2 with one clear line for %s", async (_what, makeRoot, message) => {
    const root = makeRoot(mkdtempSync(join(tmpdir(), "sr-cli-")));
    const { status, stdout, stderr } = await run("scan", "--root", root);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it("exits 2 for an unreadable root when permissions apply", async ({ skip }) => {
    if (process.getuid?.() === 0) skip("root reads every folder; covered by the uid-65534 scan test");
    const root = mkdtempSync(join(tmpdir(), "sr-cli-"));
    chmodSync(root, 0);
    const { status, stderr } = await run("scan", "--root", root);
    chmodSync(root, 0o755);
    expect(status).toBe(2);
    expect(stderr).toMatch(/not readable/);
  });

  it("exits 2 without pi's store, saying where it looked", async () => {
    const { status, stderr } = await run("scan");
    expect(status).toBe(2);
    expect(stderr).toContain(join(process.env.PI_CODING_AGENT_DIR!, "sessions"));
  });

  it.each([
    [["scan", "--sort", "newest"], /--sort wants lru, size or created/],
    [["scan", "--top", "many"], /--top wants a whole number/],
    [["scan", "--bogus"], /bogus/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ])("exits 2 for bad arguments %j", async (argv, message) => {
    const { status, stderr } = await run(...argv);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
  });

  it.each([["scan"], ["serve"], []])("--help of %j exits 0 with usage", async (...command) => {
    const { status, stdout } = await run(...command.filter(Boolean), "--help");
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: session-retention/);
  });
});

/**
 * The packages a module loads when it is imported, through every import and `export … from` that
 * stays in the JavaScript (`import type` and `export type` go; with verbatimModuleSyntax an
 * `import { type X }` stays); `import()` is left out, as it loads only when it runs.
 */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const typeOnly =
        (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) ||
        (ts.isExportDeclaration(statement) && statement.isTypeOnly);
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || typeOnly) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      if (specifier.text.startsWith(".")) visit(join(dirname(file), specifier.text.replace(/\.js$/, ".ts")));
      else packages.add(specifier.text);
    }
  };
  visit(entry);
  return packages;
}

describe("what `scan` loads", () => {
  it("not zod: loading it took ~65 ms, more than a warm rescan of 20,000 sessions may take", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const packages = packagesLoadedBy(join(here, "scan-command.ts"));
    expect(packages.has("node:fs")).toBe(true); // the walk went through the graph
    expect([...packages].filter((p) => !p.startsWith("node:"))).toEqual([]);
  });
});
