// Lint: typescript-eslint's recommended rules, plus the module boundaries (shared/ ← server/ ← extension/, shared/ ← web/)
// (tsc -b enforces them too; the lint rule gives the clearer message), plus the walls inside server/.
import { readFileSync } from "node:fs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The walls inside server/: its folders in layers, lowest first (server/layers.json, which the
// structural test server/layers.test.ts reads too; docs/architecture.md says why this order). A
// file may import its own folder and any lower layer, never a higher one nor another folder of
// its own layer. Tests (*.test.ts) may import upward: a test drives a module from above when that
// is how it is used (runCli to run a command, the HTTP app to call a route). The rule sees static
// imports and `export … from`; the structural test also sees `import()` and cycles.
const SERVER_LAYERS = JSON.parse(
  readFileSync(new URL("./server/layers.json", import.meta.url), "utf8"),
).layers;
const SERVER_ORDER = SERVER_LAYERS.map((layer) => layer.join(" | ")).join(" < ");
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One block per folder and depth: a relative path reaches server/<x> by as many `../` as the file is deep. */
function serverWalls() {
  return SERVER_LAYERS.flatMap((layer, rank) =>
    layer.flatMap((unit) => {
      const above = SERVER_LAYERS.slice(rank)
        .flat()
        .filter((other) => other !== unit);
      const depths = above.length === 0 ? [] : unit.endsWith(".ts") ? [0] : [1, 2, 3];
      return depths.map((depth) => ({
        files: [depth === 0 ? `server/${unit}` : `server/${unit}/${"*/".repeat(depth - 1)}*.ts`],
        ignores: ["**/*.test.ts"],
        rules: {
          "no-restricted-imports": [
            "error",
            {
              patterns: above.map((other) => ({
                regex: `^${depth === 0 ? "\\./" : "\\.\\./".repeat(depth)}${escapeRegex(other.replace(/\.ts$/, ".js"))}${other.endsWith(".ts") ? "$" : "/"}`,
                message: `server/${unit} may not import server/${other}, ${layer.includes(other) ? "a folder of the same layer" : "a higher layer"}. Layers, lowest first: ${SERVER_ORDER} (docs/architecture.md).`,
              })),
            },
          ],
        },
      }));
    }),
  );
}

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test-results/", "test-reports/", "playwright-report/", ".bench/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "fs", "path", "os", "child_process"],
              message: "shared/ is pure: no Node modules.",
            },
            {
              group: ["**/server/**", "**/web/**", "hono", "hono/*", "preact", "preact/*"],
              message: "shared/ imports zod only.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["web/**/*.ts", "web/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "**/server/**"],
              message: "web/ may import shared/ only, never server code.",
            },
          ],
        },
      ],
    },
  },
  ...serverWalls(),
  {
    files: ["bin/**/*.js", "eslint.config.js", ".ci/**/*.mjs"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly" } },
  },
);
