// Lint: typescript-eslint's recommended rules, plus the module boundaries (shared/ ← server/ ← extension/, shared/ ← web/)
// (tsc -b enforces them too; the lint rule gives the clearer message).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
  {
    files: ["bin/**/*.js", "eslint.config.js", ".ci/**/*.mjs"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly" } },
  },
);
