// The walls inside server/: the import graph of its source files (tests left out: a test may drive
// a command from above), type-only and dynamic imports included, has no cycle, and no file imports
// a folder of a higher layer than its own or another folder of the same layer. The layer order is
// server/layers.json, which the lint rule in eslint.config.js reads too; the lint rule gives the
// message in the editor, this test also sees what the rule cannot (dynamic `import()`, cycles
// inside a folder, a folder that is in no layer). docs/architecture.md explains the order.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SERVER = dirname(fileURLToPath(import.meta.url));
const LAYERS = (JSON.parse(readFileSync(join(SERVER, "layers.json"), "utf8")) as { layers: string[][] })
  .layers;

type Edge = { from: string; to: string };

/** Every module `source` names: import, `import type`, `export … from`, `import()`. */
function specifiersOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** server/'s source files, as paths relative to server/ with `/` separators. */
function sourceFiles(folder = SERVER): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts")
      ? [relative(SERVER, path).split(sep).join("/")]
      : [];
  });
}

/** The imports between server/'s files; an import that names no file is returned apart, not dropped. */
function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = sourceFiles();
  const known = new Set(files);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    for (const specifier of specifiersOf(readFileSync(join(SERVER, from), "utf8"))) {
      if (!specifier.startsWith(".")) continue; // a package or node: module
      const target = relative(SERVER, join(SERVER, dirname(from), specifier.replace(/\.js$/, ".ts")));
      if (target.startsWith("..")) continue; // shared/: its own wall (tsc -b, ESLint)
      const to = target.split(sep).join("/");
      if (known.has(to)) edges.push({ from, to });
      else unresolved.push(`${from} → ${specifier}`);
    }
  }
  return { files, edges, unresolved };
}

/** The folder (or top-level file) of server/ a file belongs to: `stores/pi/x.ts` → `stores`. */
const unitOf = (file: string) => file.split("/", 1)[0] ?? file;

function layerOf(unit: string, layers: string[][]): number {
  return layers.findIndex((layer) => layer.includes(unit));
}

/** Imports that reach a higher layer, or another folder of the same layer. */
function wallBreaches(edges: readonly Edge[], layers: string[][]): string[] {
  return edges.flatMap(({ from, to }) => {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a === b) return [];
    const [la, lb] = [layerOf(a, layers), layerOf(b, layers)];
    if (lb < la) return [];
    const why = lb === la ? `beside it in layer ${la}` : `layer ${lb}, above its ${la}`;
    return [`${from} → ${to} (${b} is ${why})`];
  });
}

/** Each import cycle once, as `a → b → … → a` (Tarjan's strongly connected components). */
function cycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = new Set<string>();
    for (let member = ""; member !== node;) component.add((member = stack.pop()!));
    if (component.size > 1 || next.get(node)?.includes(node)) found.push(pathBack(node, component, next));
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A shortest way from `start` back to itself inside its component, written out. */
function pathBack(start: string, component: Set<string>, next: Map<string, string[]>): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of next.get(node) ?? []) {
      if (!component.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, node);
      if (to === start) {
        const path = [start];
        for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        return [start, ...path].join(" → ");
      }
      queue.push(to);
    }
  }
  return [...component].join(" ↔ ");
}

describe("the checker itself", () => {
  it("sees every kind of import: value, type-only, re-export and dynamic", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export { c } from "./c.js";',
      'export * from "./d.js";',
      'const e = await import("./e.js");',
    ].join("\n");
    expect(specifiersOf(source)).toEqual(["./a.js", "../b.js", "./c.js", "./d.js", "./e.js"]);
  });

  it("finds a cycle, however long, and an import up or sideways", () => {
    const edges = [
      { from: "state/a.ts", to: "stores/b.ts" },
      { from: "stores/b.ts", to: "stores/c.ts" },
      { from: "stores/c.ts", to: "state/a.ts" },
      { from: "report/r.ts", to: "demo/d.ts" },
    ];
    expect(cycles(edges)).toEqual(["state/a.ts → stores/b.ts → stores/c.ts → state/a.ts"]);
    expect(wallBreaches(edges, [["stores"], ["state"], ["report", "demo"]])).toEqual([
      "stores/c.ts → state/a.ts (state is layer 1, above its 0)",
      "report/r.ts → demo/d.ts (demo is beside it in layer 2)",
    ]);
    expect(cycles([{ from: "a.ts", to: "a.ts" }])).toEqual(["a.ts → a.ts"]);
  });
});

describe("the walls inside server/", () => {
  const { files, edges, unresolved } = importGraph();

  it("reads the whole of server/, and every import it reads names a file of it", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(300);
    expect(unresolved).toEqual([]);
  });

  it("puts every folder of server/ in exactly one layer, and names no folder that is gone", () => {
    const units = [...new Set(files.map(unitOf))].sort();
    const listed = LAYERS.flat();
    expect(units.filter((unit) => layerOf(unit, LAYERS) < 0)).toEqual([]);
    expect(listed.filter((unit) => !units.includes(unit))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("has no import from a lower layer to a higher one, nor between folders of one layer", () => {
    expect(wallBreaches(edges, LAYERS)).toEqual([]);
  });

  it("has no import cycle between files, type-only imports included", () => {
    expect(cycles(edges)).toEqual([]);
  });
});

describe("the lint rule for the same walls (eslint.config.js)", () => {
  const lint = async (filePath: string, code: string) => {
    const [result] = await new ESLint({ cwd: join(SERVER, "..") }).lintText(code, {
      filePath: join(SERVER, "..", filePath),
    });
    return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
  };

  it("refuses an import up the layers, at every depth, naming the order", async () => {
    const up = await lint("server/fs/new.ts", 'export type { StatePaths } from "../state/state-dir.js";\n');
    expect(up).toEqual([
      expect.stringMatching(
        /server\/fs may not import server\/state, a higher layer\. Layers, lowest first: errors\.ts < fs < stores < /,
      ),
    ]);
    const deep = await lint(
      "server/stores/pi/new.ts",
      'import type { Plan } from "../../plan/plan-inputs.js";\nexport type P = Plan;\n',
    );
    expect(deep).toHaveLength(1);
    const beside = await lint(
      "server/report/new.ts",
      'import { x } from "../demo/demo-store.js";\nexport const y = x;\n',
    );
    expect(beside).toEqual([expect.stringContaining("server/demo, a folder of the same layer")]);
  }, 60_000);

  it("lets a file import its own folder and lower layers, and a test import upward", async () => {
    // stores/workspace/ is the store reader, not the workspace/ feature above it.
    const own =
      'import { a } from "./workspace/workspace-store.js";\nimport { b } from "../fs/lock-file.js";\nexport const c = [a, b];\n';
    expect(await lint("server/stores/new.ts", own)).toEqual([]);
    const test = 'import { runCli } from "../cli/main.js";\nexport const r = runCli;\n';
    expect(await lint("server/fs/new.test.ts", test)).toEqual([]);
  }, 60_000);
});
