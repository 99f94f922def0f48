// The made-up data a demo store is built from: projects, prompts, words, models and thinking levels.
import type { Random } from "./seeded-random.js";

export type Language = "typescript" | "go" | "python" | "rust" | "shell";

export interface DemoProject {
  cwd: string;
  /** Share of the sessions this project gets. */
  weight: number;
  language: Language;
  files: readonly string[];
  /** Opening prompts. */
  tasks: readonly string[];
  /** What people name a session with `/name`: `names[i]` goes with `tasks[i]`. */
  names: readonly string[];
  /** Commands the agent runs: tests first, then the rest. */
  commands: readonly string[];
  /** Images the agent looks at (only projects with a UI or plots have them). */
  screenshots: readonly string[];
}

// Realistic cwds, including the awkward ones: a space, dots, dashes (pi's folder names are lossy for them).
export const PROJECTS: readonly DemoProject[] = [
  {
    cwd: "/home/alex/code/session-retention",
    weight: 5,
    language: "typescript",
    files: [
      "server/scan/scanner.ts",
      "server/scan/walker.ts",
      "server/scan/scan-cache.ts",
      "server/stores/pi/session-parser.ts",
      "server/http/app.ts",
      "shared/session-record.ts",
      "web/src/pages/OverviewPage.tsx",
      "server/cli/scan-command.ts",
    ],
    tasks: [
      "A warm rescan of my 20k-session store takes 3 s. Profile server/scan/scanner.ts and make it faster.",
      "Add a --json flag to the scan command that prints the whole ScanReport.",
      "The overview page should list the 10 largest sessions with their age. Wire it to /api/summary.",
      "Sessions whose last line is cut off are reported as corrupt. They should get a truncated-last-line warning instead.",
      "Write tests for the walker: symlinks, sockets, unreadable folders and names that are not UTF-8.",
      "The scan cache grows forever. Drop entries for files that no longer exist.",
    ],
    names: [
      "Faster warm rescans",
      "scan --json",
      "Overview: largest sessions",
      "Truncated last line warning",
      "Walker edge cases",
      "Scan cache pruning",
    ],
    commands: [
      "npx vitest run server/scan",
      "npx tsc -b",
      "npx biome check .",
      "git status --short",
      "git diff --stat",
      "node dist/bench/scan-bench.js",
      'rg -n "lastUsedAt" server shared',
    ],
    screenshots: [
      "e2e/screenshots/overview.png",
      "e2e/screenshots/overview-dark.png",
      "e2e/screenshots/top-sessions.png",
    ],
  },
  {
    cwd: "/home/alex/code/acme-web-app",
    weight: 4,
    language: "typescript",
    files: [
      "src/app/checkout/page.tsx",
      "src/components/CartSummary.tsx",
      "src/components/DiscountField.tsx",
      "src/lib/pricing.ts",
      "src/lib/api-client.ts",
      "tests/checkout.spec.ts",
    ],
    tasks: [
      "The checkout page overflows on mobile, see the screenshot in test-results. Fix the CartSummary layout.",
      "Add a discount-code field to checkout and validate it against /api/discounts.",
      "pricing.ts rounds tax wrong for JPY. Fix it and add tests for zero-decimal currencies.",
      "Replace axios with fetch in src/lib/api-client.ts, keep the retry behaviour.",
      "The Playwright checkout test is flaky on CI. Find out why.",
    ],
    names: [
      "Checkout mobile layout",
      "Discount codes",
      "JPY tax rounding",
      "Drop axios",
      "Flaky checkout e2e",
    ],
    commands: [
      "pnpm test",
      "pnpm lint",
      "pnpm exec playwright test tests/checkout.spec.ts",
      "git status --short",
      "git log --oneline -5",
      "pnpm build",
    ],
    screenshots: [
      "test-results/checkout-mobile.png",
      "test-results/checkout-desktop.png",
      "screenshots/cart-summary-before.png",
      "screenshots/cart-summary-after.png",
    ],
  },
  {
    cwd: "/home/alex/work/api.acme.io",
    weight: 3,
    language: "go",
    files: [
      "cmd/server/main.go",
      "internal/orders/handler.go",
      "internal/orders/store.go",
      "internal/auth/middleware.go",
      "internal/ratelimit/limiter.go",
    ],
    tasks: [
      "Add rate limiting to the public order endpoints: 100 requests a minute per API key.",
      "GET /orders is slow for big customers. Add cursor pagination.",
      "The auth middleware accepts expired tokens when clocks drift. Fix it and add a test.",
      "Write the migration and store methods for the new discounts table.",
    ],
    names: ["Order rate limits", "Cursor pagination", "Token expiry skew", "Discounts table"],
    commands: [
      "go test ./...",
      "go vet ./...",
      "go build ./cmd/server",
      "git status --short",
      'rg -n "func .*Handler" internal',
    ],
    screenshots: [],
  },
  {
    cwd: "/home/alex/Documents/Client Work/northwind portal",
    weight: 3,
    language: "python",
    files: [
      "portal/views.py",
      "portal/models.py",
      "portal/forms.py",
      "portal/tests/test_invoices.py",
      "portal/exports.py",
    ],
    tasks: [
      "The invoice list is broken in Safari (screenshot attached in screenshots/). Fix the grid.",
      "Customers can see other customers' invoices by changing the id in the URL! Fix this first.",
      "Export the invoice list as CSV, with the same filters as the page.",
      "Upgrade Django from 4.2 to 5.1 and fix the deprecation warnings.",
    ],
    names: ["Safari invoice grid", "Invoice access check", "CSV export", "Django 5.1"],
    commands: [
      "python manage.py test portal",
      "ruff check .",
      "python manage.py makemigrations --check",
      "git status --short",
    ],
    screenshots: ["screenshots/invoice-list-safari.png", "screenshots/invoice-list-fixed.png"],
  },
  {
    cwd: "/home/alex/code/rust-image-resizer",
    weight: 2,
    language: "rust",
    files: ["src/main.rs", "src/resize.rs", "src/cli.rs", "src/encode.rs", "tests/resize_test.rs"],
    tasks: [
      "Add a --max-bytes option that keeps shrinking until the PNG fits.",
      "Resizing a 12000 px wide image uses 3 GB of RAM. Stream it instead.",
      "Port the CLI from structopt to clap 4.",
    ],
    names: ["--max-bytes", "Streaming resize", "clap 4"],
    commands: ["cargo test", "cargo clippy -- -D warnings", "cargo build --release", "git status --short"],
    screenshots: [],
  },
  {
    cwd: "/home/alex/dotfiles",
    weight: 2,
    language: "shell",
    files: ["install.sh", "zsh/.zshrc", "zsh/aliases.zsh", "tmux/tmux.conf", "bin/git-cleanup"],
    tasks: [
      "My zsh takes 1.2 s to start. Find out what is slow.",
      "Make install.sh idempotent so I can re-run it safely.",
      "Set up a tmux status line with the git branch and battery level.",
    ],
    names: ["Slow zsh start-up", "Idempotent install.sh", "tmux status line"],
    commands: ["zsh -i -c exit", "shellcheck install.sh bin/git-cleanup", "git status --short", "ls -la"],
    screenshots: [],
  },
  {
    cwd: "/srv/ml-experiments/churn-model.v2",
    weight: 2,
    language: "python",
    files: ["train.py", "features.py", "evaluate.py", "data_loading.py", "tests/test_features.py"],
    tasks: [
      "Training runs out of memory on the full dataset. Make features.py work in chunks.",
      "Use a time-based train/validation split instead of the random one.",
      "Plot the ROC curve and feature importance for the new model and compare them with last week's.",
    ],
    names: ["Chunked features", "Time-based split", "Model comparison plots"],
    commands: [
      "pytest -q",
      "python train.py --config config/params.yaml --dry-run",
      "du -sh data/*",
      "nvidia-smi",
    ],
    screenshots: ["reports/roc-curve.png", "reports/feature-importance.png", "reports/calibration.png"],
  },
];

export const FOLLOW_UPS = [
  "ok, run the tests again",
  "that broke the build, see the error above",
  "looks good. can you also add a test for the empty case?",
  "no, keep the old behaviour for files written by older versions",
  "why is this slower than before?",
  "can you simplify that? it feels like too much code for what it does",
  "nice. commit this with a clear message",
  "the CI run failed on the lint step, fix it",
  "what happens if the file is deleted while we read it?",
  "rename that helper, the name doesn't say what it does",
  "let's also handle the case where the folder is missing",
  "good. now update the README to match",
  "hmm, I don't think that's right, check the caller again",
  "continue",
  "yes, go ahead",
];

export const NOUNS =
  "session order invoice cart price token file record image feature report cache queue chunk config limit cursor entry".split(
    " ",
  );
export const VERBS = [
  "load",
  "parse",
  "build",
  "read",
  "write",
  "resolve",
  "format",
  "check",
  "update",
  "compute",
];
export const TYPES = ["string", "number", "boolean", "Options", "Result", "Entry", "Summary"];

export const SENTENCES = [
  "Keeps the hot path free of allocations.",
  "Returns undefined when the input is empty.",
  "Called once per request; cheap.",
  "Older files may not have this field.",
  "Shared by the CLI and the HTTP handler.",
  "Must stay in sync with the schema.",
];

export interface DemoModel {
  api: string;
  provider: string;
  id: string;
  /** Dollars per million tokens, as in pi's model table. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export const SONNET: DemoModel = {
  api: "anthropic-messages",
  provider: "anthropic",
  id: "claude-sonnet-4-5",
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
export const OPUS: DemoModel = {
  api: "anthropic-messages",
  provider: "anthropic",
  id: "claude-opus-4-5",
  cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
};
const HAIKU: DemoModel = {
  api: "anthropic-messages",
  provider: "anthropic",
  id: "claude-haiku-4-5",
  cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};
const CODEX: DemoModel = {
  api: "openai-responses",
  provider: "openai",
  id: "gpt-5.1-codex",
  cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
};

export const isOpenAi = (model: DemoModel) => model.api === "openai-responses";

export const THINKING_LEVELS = ["off", "low", "medium", "medium", "high"];

export function pickModel(random: Random): DemoModel {
  const roll = random.next();
  if (roll < 0.55) return SONNET;
  if (roll < 0.72) return OPUS;
  if (roll < 0.78) return HAIKU;
  return CODEX;
}
