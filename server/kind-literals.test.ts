// The engine names no agent: a store kind ("pi", "claude", …) written as a string anywhere in
// server/, shared/, extension/ or web/src is a failure, except in the adapters' own folders
// (server/stores/) and the kind registry (shared/store-kinds.ts). What an agent does differently
// belongs to its adapter (server/stores/<kind>/adapter.ts) or the registry, and the rest asks them.
// Only string literals count (comments and words in longer strings do not); tests are left out —
// a test names the agent it drives.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { STORE_KINDS } from "../shared/store-kinds.js";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const SEARCHED = ["server", "shared", "extension", "web/src"];

/** Where a kind may be named, and why. */
const ALLOWED: ReadonlyArray<[prefix: string, why: string]> = [
  ["server/stores/", "the adapters: each agent's knowledge is its folder's"],
  ["shared/store-kinds.ts", "the kind registry: the kinds, their labels, what pure code needs of each"],
];

/** Strings that equal a kind's name but mean something else, each with its reason. */
const NOT_A_KIND: ReadonlyArray<[file: string, text: string, why: string]> = [
  ["shared/api.ts", `z.enum(["pi", "demo"])`, "the dashboard's data source: the real stores or the demo"],
  ["server/cli/serve-command.ts", `source: { kind: "pi" }`, "the dashboard's data source (shared/api.ts)"],
  ["shared/trash.ts", `extension: "pi"`, "who did it, in words: the pi extension"],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPO, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (name === "node_modules") return [];
    if (statSync(join(REPO, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path.split(sep).join("/")] : [];
  });
}

/**
 * A node naming a key: an object's property (`{ pi: … }`, a method `pi() {…}`), a type's
 * (`{ claude: string }`), or one read (`adapters.codex`).
 */
const KEYED = (
  node: ts.Node,
): node is
  ts.PropertyAssignment | ts.MethodDeclaration | ts.PropertySignature | ts.PropertyAccessExpression =>
  ts.isPropertyAssignment(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isPropertySignature(node) ||
  ts.isPropertyAccessExpression(node);

/**
 * Each store kind in `source` written as a string literal or as a key (an object's, a type's, one
 * read): its line and the line's text.
 */
function kindLiterals(file: string, source: string): Array<{ line: number; text: string; kind: string }> {
  const kinds = new Set<string>(STORE_KINDS);
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string; kind: string }> = [];
  const visit = (node: ts.Node) => {
    const named =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node
        : KEYED(node) && ts.isIdentifier(node.name)
          ? node.name
          : ts.isShorthandPropertyAssignment(node)
            ? node.name
            : undefined;
    if (named && kinds.has(named.text)) {
      const { line } = tree.getLineAndCharacterOfPosition(named.getStart(tree));
      found.push({ line: line + 1, text: source.split("\n")[line]!.trim(), kind: named.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** Every store-kind literal outside the places allowed, as `file:line  text`. */
function strayKindLiterals(root = REPO, folders = SEARCHED): string[] {
  const stray: string[] = [];
  for (const file of folders.flatMap(sourceFiles)) {
    if (ALLOWED.some(([prefix]) => file.startsWith(prefix))) continue;
    for (const { line, text } of kindLiterals(file, readFileSync(join(root, file), "utf8")))
      if (!NOT_A_KIND.some(([f, t]) => f === file && text.includes(t)))
        stray.push(`${file}:${line}  ${text}`);
  }
  return stray;
}

describe("store-kind literals", () => {
  it("none outside server/stores/ and the kind registry", () => {
    expect(strayKindLiterals()).toEqual([]);
  });

  it("finds one as a key: an object's, a method's, a shorthand's, a type's, one read", () => {
    const source = [
      "const depth = { pi: 1, claudeCode: 4 };",
      "const o = { codex() {}, gemini };",
      "type Homes = { agentsh: string; other: string };",
      "read(adapters.workspace, adapters.other);",
    ];
    expect(kindLiterals("x.ts", source.join("\n")).map(({ line, kind }) => [line, kind])).toEqual([
      [1, "pi"],
      [2, "codex"],
      [2, "gemini"],
      [3, "agentsh"],
      [4, "workspace"],
    ]);
  });

  it("finds one: a kind as a string, in code, is found; in a comment or a longer string it is not", () => {
    const source = [
      '// a "pi" store',
      'const a = "pi\'s store";',
      'if (kind === "codex") go();',
      "const b = `gemini`;",
    ];
    expect(kindLiterals("x.ts", source.join("\n"))).toEqual([
      { line: 3, text: 'if (kind === "codex") go();', kind: "codex" },
      { line: 4, text: "const b = `gemini`;", kind: "gemini" },
    ]);
  });

  it("each exception is still needed (none left behind once its literal is gone)", () => {
    for (const [file, text] of NOT_A_KIND)
      expect(readFileSync(join(REPO, file), "utf8"), `${file}: ${text}`).toContain(text);
  });
});
