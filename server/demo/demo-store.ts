// A made-up but realistic pi session store, so a machine without pi sessions still gets a populated
// dashboard. The JSONL is written by hand in pi's exact shapes (pi is only a devDependency), from a
// seeded random generator so the same seed and `now` always give the same bytes.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";

export interface DemoStoreOptions {
  /** The moment the store is generated at: every time in it is at or before this. Default: now. */
  now?: Date;
  /** Same seed and same `now` give byte-identical files. */
  seed?: number;
}

export interface DemoStoreSummary {
  sessions: number;
  bytes: number;
}

const DEFAULT_SEED = 20_250_704;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Turns a session with rare events (branch, label, rename…) runs at least, so the events fit. */
const EVENT_TURNS = 4;

// ---------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** mulberry32: tiny and fast, and plenty for made-up data. Not for anything secret. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** Log-uniform: as many values in 5–10 as in 100–200, the way session sizes spread in real stores. */
  logBetween(min: number, max: number): number {
    return Math.exp(this.between(Math.log(min), Math.log(max)));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A few distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0)
      chosen.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return chosen;
  }

  chars(alphabet: string, length: number): string {
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(this.next() * alphabet.length)];
    return text;
  }

  hex(length: number): string {
    return this.chars("0123456789abcdef", length);
  }

  /** An independent stream, so one session's content does not shift every later session's. */
  child(): Random {
    return new Random(Math.floor(this.next() * 4_294_967_296));
  }
}

/** pi's session ids are UUIDv7: 48 bits of milliseconds, then random bits. */
function uuidV7(random: Random, ms: number): string {
  const time = ms.toString(16).padStart(12, "0");
  const variant = "89ab"[random.int(0, 3)];
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.hex(3)}-${variant}${random.hex(3)}-${random.hex(12)}`;
}

// ---------------------------------------------------------------------------------------------
// Screenshots: small valid PNGs, written without zlib so the bytes never depend on zlib's version
// ---------------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of "stored" (uncompressed) deflate blocks: valid, and the size we ask for. */
function storedZlib(raw: Buffer): Buffer {
  const blockSize = 65535;
  const blocks = Math.max(1, Math.ceil(raw.length / blockSize));
  const out = Buffer.alloc(2 + raw.length + blocks * 5 + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * blockSize;
    const length = Math.min(blockSize, raw.length - start);
    out[at] = block === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    raw.copy(out, at + 5, start, start + length);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(raw), at);
  return out;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

type Rgb = readonly [number, number, number];

/** A wireframe "screenshot" (top bar, sidebar, cards, text lines) whose base64 is about `base64Bytes` long. */
function screenshotPng(random: Random, base64Bytes: number): Buffer {
  const pixels = Math.floor((base64Bytes * 3) / 4 / 3);
  const height = Math.max(120, Math.round(Math.sqrt(pixels / 1.6)));
  const width = Math.max(192, Math.round(height * 1.6));
  const stride = width * 3 + 1; // each row starts with its filter byte (0: none)
  const raw = Buffer.alloc(stride * height);
  const fill = (x: number, y: number, w: number, h: number, [r, g, b]: Rgb) => {
    const x1 = Math.min(width, x + w);
    const y1 = Math.min(height, y + h);
    for (let row = Math.max(0, y); row < y1; row++) {
      let at = row * stride + 1 + Math.max(0, x) * 3;
      for (let column = Math.max(0, x); column < x1; column++) {
        raw[at++] = r;
        raw[at++] = g;
        raw[at++] = b;
      }
    }
  };
  const accent = random.pick<Rgb>([
    [37, 99, 235],
    [22, 163, 74],
    [219, 39, 119],
    [234, 88, 12],
    [79, 70, 229],
  ]);
  fill(0, 0, width, height, [245, 246, 248]);
  fill(0, 0, width, 44, accent);
  const sidebar = Math.round(width * 0.18);
  fill(0, 44, sidebar, height - 44, [229, 231, 235]);
  for (let y = 64; y < height - 20; y += 28) fill(16, y, sidebar - random.int(32, 60), 10, [156, 163, 175]);
  let y = 64;
  while (y < height - 60) {
    const cardHeight = random.int(60, 160);
    fill(sidebar + 24, y, width - sidebar - 48, cardHeight, [255, 255, 255]);
    fill(sidebar + 24, y, 6, cardHeight, accent);
    for (let line = y + 16; line < y + cardHeight - 12; line += 18)
      fill(sidebar + 44, line, random.int(80, width - sidebar - 100), 8, [75, 85, 99]);
    y += cardHeight + 20;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", storedZlib(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The made-up projects
// ---------------------------------------------------------------------------------------------

type Language = "typescript" | "go" | "python" | "rust" | "shell";

interface DemoProject {
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
const PROJECTS: readonly DemoProject[] = [
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

const FOLLOW_UPS = [
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

const NOUNS =
  "session order invoice cart price token file record image feature report cache queue chunk config limit cursor entry".split(
    " ",
  );
const VERBS = ["load", "parse", "build", "read", "write", "resolve", "format", "check", "update", "compute"];
const TYPES = ["string", "number", "boolean", "Options", "Result", "Entry", "Summary"];

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

interface Identifiers {
  noun: string;
  noun2: string;
  verb: string;
}

function identifiers(random: Random): Identifiers {
  return { noun: random.pick(NOUNS), noun2: random.pick(NOUNS), verb: random.pick(VERBS) };
}

/** How one language spells the few constructs the made-up files are built from. */
interface LanguageStyle {
  comment: (text: string) => string;
  imports: (random: Random) => string;
  open: (names: Identifiers, random: Random) => string;
  body: (names: Identifiers, random: Random) => string;
  close: string;
}

const STYLES: Record<Language, LanguageStyle> = {
  typescript: {
    comment: (text) => `/** ${text} */`,
    imports: (random) =>
      `import { ${random.pick(VERBS)}${capitalize(random.pick(NOUNS))} } from "./${random.pick(NOUNS)}.js";`,
    open: ({ verb, noun }, random) =>
      `export function ${verb}${capitalize(noun)}(${noun}: ${random.pick(TYPES)}): ${random.pick(TYPES)} {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `  const ${noun2} = ${verb}${capitalize(noun)}(${noun});`,
        `  if (!${noun}) return undefined;`,
        `  for (const ${noun2} of ${noun}s) ${noun2}s.push(${noun2});`,
        `  return { ...${noun}, ${noun2}: ${noun2}s.length };`,
        `  // ${capitalize(noun)}s written by older versions have no ${noun2}.`,
        `  const ${noun2}Bytes = Buffer.byteLength(${noun}.${noun2}, "utf8");`,
      ]),
    close: "}",
  },
  go: {
    comment: (text) => `// ${text}`,
    imports: (random) =>
      `\t"${random.pick(["context", "errors", "fmt", "net/http", "time", "sync", "strconv"])}"`,
    open: ({ verb, noun }) =>
      `func (s *Store) ${capitalize(verb)}${capitalize(noun)}(ctx context.Context, id string) error {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `\t${noun2}, err := s.db.${capitalize(verb)}(ctx, id)`,
        "\tif err != nil {",
        `\t\treturn fmt.Errorf("${verb} ${noun}: %w", err)`,
        "\t}",
        `\tdefer s.mu.Unlock()`,
        `\ts.metrics.${capitalize(noun)}s.Inc()`,
      ]),
    close: "}",
  },
  python: {
    comment: (text) => `    """${text}"""`,
    imports: (random) =>
      `from ${random.pick(["django.db", "pandas", "numpy", "portal", "typing"])} import ${random.pick(NOUNS)}`,
    open: ({ verb, noun }) => `def ${verb}_${noun}(${noun}, *, limit=None):`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `    ${noun2} = ${verb}_${noun2}(${noun})`,
        `    if ${noun} is None:`,
        `        return []`,
        `    for ${noun2} in ${noun}.${noun2}s.all():`,
        `        yield ${noun2}`,
        `    logger.info("${verb} %s ${noun}s", len(${noun}))`,
      ]),
    close: "",
  },
  rust: {
    comment: (text) => `/// ${text}`,
    imports: (random) =>
      `use ${random.pick(["std::io", "anyhow::Result", "image::DynamicImage", "crate::cli"])};`,
    open: ({ verb, noun }) => `pub fn ${verb}_${noun}(${noun}: &mut ${capitalize(noun)}) -> Result<()> {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `    let ${noun2} = ${noun}.${verb}()?;`,
        `    if ${noun2}.is_empty() {`,
        `        return Ok(());`,
        "    }",
        `    for row in ${noun}.rows() {`,
        `    ${noun2}.extend_from_slice(&buf[..n]);`,
      ]),
    close: "}",
  },
  shell: {
    comment: (text) => `# ${text}`,
    imports: (random) =>
      `source "$HOME/.config/${random.pick(["zsh", "shell", "tmux"])}/${random.pick(NOUNS)}.zsh"`,
    open: ({ verb, noun }) => `${verb}_${noun}() {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `  local ${noun2}="$1"`,
        `  [ -e "$${noun2}" ] || return 0`,
        `  command -v ${noun} >/dev/null 2>&1 || return 1`,
        `  ln -sfn "$DOTFILES/${noun}" "$HOME/.${noun}"`,
        `  echo "${verb} ${noun}: done"`,
      ]),
    close: "}",
  },
};

const SENTENCES = [
  "Keeps the hot path free of allocations.",
  "Returns undefined when the input is empty.",
  "Called once per request; cheap.",
  "Older files may not have this field.",
  "Shared by the CLI and the HTTP handler.",
  "Must stay in sync with the schema.",
];

/** A plausible source file of about `lines` lines in the project's language. */
function sourceFile(random: Random, language: Language, lines: number): string {
  const style = STYLES[language];
  const out: string[] = [];
  for (let i = random.int(2, 5); i > 0; i--) out.push(style.imports(random));
  out.push("");
  while (out.length < lines) {
    const names = identifiers(random);
    out.push(style.comment(random.pick(SENTENCES)));
    out.push(style.open(names, random));
    for (let i = random.int(3, 12); i > 0; i--) out.push(style.body(names, random));
    if (style.close) out.push(style.close);
    out.push("");
  }
  return out.join("\n");
}

/** What a command printed: tests, git, linters and the rest, in their usual shapes. */
function commandOutput(
  random: Random,
  project: DemoProject,
  command: string,
  fail: boolean,
  scale: number,
): string {
  const file = () => random.pick(project.files);
  const count = (min: number, max: number) => random.int(min, Math.max(min, Math.round(max * scale)));
  if (/\b(test|vitest|pytest)\b/.test(command)) {
    const lines: string[] = [];
    for (let i = count(3, 40); i > 0; i--)
      lines.push(`  ✓ ${file()} > ${random.pick(VERBS)}s ${random.pick(NOUNS)}s (${random.int(1, 90)} ms)`);
    if (fail) {
      const where = file();
      lines.push(`  ✗ ${where} > ${random.pick(VERBS)}s the ${random.pick(NOUNS)} when it is empty`);
      lines.push("", `AssertionError: expected ${random.int(0, 9)} to be ${random.int(10, 99)}`);
      for (let i = random.int(3, 8); i > 0; i--)
        lines.push(`    at ${where}:${random.int(10, 400)}:${random.int(3, 40)}`);
      lines.push("", `Tests  1 failed | ${lines.length} passed`);
    } else
      lines.push(
        "",
        `Tests  ${lines.length} passed (${lines.length})`,
        `Duration  ${random.between(0.4, 9).toFixed(2)}s`,
      );
    return lines.join("\n");
  }
  if (command.startsWith("git status")) {
    const lines: string[] = [];
    for (const path of random.sample(project.files, random.int(1, 4)))
      lines.push(` ${random.pick(["M", "M", "A", "??"])} ${path}`);
    return lines.join("\n");
  }
  if (command.startsWith("git diff")) {
    const paths = random.sample(project.files, random.int(1, 4));
    const lines = paths.map(
      (path) =>
        ` ${path} | ${random.int(2, 80)} ${"+".repeat(random.int(1, 20))}${"-".repeat(random.int(0, 9))}`,
    );
    lines.push(
      ` ${paths.length} files changed, ${random.int(10, 200)} insertions(+), ${random.int(0, 60)} deletions(-)`,
    );
    return lines.join("\n");
  }
  if (command.startsWith("git log")) {
    const lines: string[] = [];
    for (let i = 0; i < 5; i++)
      lines.push(
        `${random.hex(7)} ${capitalize(random.pick(VERBS))} ${random.pick(NOUNS)} ${random.pick(NOUNS)}s`,
      );
    return lines.join("\n");
  }
  if (command.startsWith("rg ")) {
    const lines: string[] = [];
    for (let i = count(2, 30); i > 0; i--)
      lines.push(
        `${file()}:${random.int(1, 500)}:${STYLES[project.language].body(identifiers(random), random).trim()}`,
      );
    return lines.join("\n");
  }
  if (fail) {
    const lines: string[] = [];
    for (let i = random.int(1, 5); i > 0; i--)
      lines.push(
        `${file()}:${random.int(1, 400)}:${random.int(1, 60)}: error: ${random.pick(NOUNS)} is possibly undefined`,
      );
    return lines.join("\n");
  }
  const lines: string[] = [];
  for (let i = count(0, 25); i > 0; i--) lines.push(`${random.pick(VERBS)}ing ${random.pick(NOUNS)} … ok`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

interface DemoModel {
  api: string;
  provider: string;
  id: string;
  /** Dollars per million tokens, as in pi's model table. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

const SONNET: DemoModel = {
  api: "anthropic-messages",
  provider: "anthropic",
  id: "claude-sonnet-4-5",
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
const OPUS: DemoModel = {
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

const isOpenAi = (model: DemoModel) => model.api === "openai-responses";

// ---------------------------------------------------------------------------------------------
// One session file
// ---------------------------------------------------------------------------------------------

/**
 * An entry as pi serializes it: `type`, `id`, `parentId`, `timestamp` first (JSON keeps insertion
 * order). While a session is built, `timestamp` (and a message's own `timestamp`) hold milliseconds
 * since the session's start; `serialize` turns them into real times once the start is known.
 */
type Entry = Record<string, unknown> & { type: string; id: string; timestamp: number | string };

/** A type, not an interface: it has to fit in a `Record<string, unknown>` content list. */
type ToolCall = {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
};

/** What a session builder needs to know up front. */
interface SessionPlan {
  random: Random;
  project: DemoProject;
  model: DemoModel;
  thinkingLevel: string;
  /** Approximate file size to stop at. */
  targetBytes: number;
  /** How many screenshots the agent reads (each an inline base64 image). */
  screenshots: number;
  /** The first screenshot is a full-page one, over 1 MB on a single line (pi has no limit there). */
  fullPageScreenshot: boolean;
  name?: string;
  renamed?: boolean;
  nameCleared?: boolean;
  modelSwitch: boolean;
  thinkingSwitch: boolean;
  label: boolean;
  branch: "none" | "plain" | "summary";
  userBash: boolean;
  extensionState: boolean;
  aborted: boolean;
  /** Pauses of days between turns, like a session resumed with `pi -c` next week. */
  resumedAfterDays?: number;
}

/** Builds the entries of one session: timestamps relative to its start, ids unique within the file. */
class SessionBuilder {
  readonly entries: Entry[] = [];
  private readonly ids: Set<string>;
  private leaf: string | null;
  /** Milliseconds since the session's start. */
  clock: number;
  bytes = 0;
  private contextTokens = 0;
  private model: DemoModel;
  private turnCount = 0;
  private readonly readFiles = new Set<string>();
  private readonly modifiedFiles = new Set<string>();
  private screenshotsLeft: number;
  private readonly scale: number;
  private thinkingLevel: string;
  /** The first prompt: what a compaction summary names as the goal. */
  private opening = "";

  constructor(
    private readonly plan: SessionPlan,
    start: { leaf: string | null; ids: Iterable<string>; clock: number },
  ) {
    this.leaf = start.leaf;
    this.ids = new Set(start.ids);
    this.clock = start.clock;
    this.model = plan.model;
    this.thinkingLevel = plan.thinkingLevel;
    this.screenshotsLeft = plan.screenshots;
    // Small sessions read short files and run few tools; long ones the opposite.
    this.scale = Math.min(1, Math.max(0.15, plan.targetBytes / 150_000));
  }

  private get random() {
    return this.plan.random;
  }

  private newId(): string {
    for (;;) {
      const id = this.random.hex(8);
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  private append(type: string, fields: Record<string, unknown>): string {
    const entry: Entry = { type, id: this.newId(), parentId: this.leaf, timestamp: this.clock, ...fields };
    this.entries.push(entry);
    this.leaf = entry.id;
    this.bytes += JSON.stringify(entry).length + 1;
    return entry.id;
  }

  private wait(minMs: number, maxMs: number) {
    this.clock += Math.round(this.random.logBetween(minMs, maxMs));
  }

  modelChange(model: DemoModel) {
    this.model = model;
    this.append("model_change", { provider: model.provider, modelId: model.id });
  }

  thinkingLevelChange(level: string) {
    this.thinkingLevel = level;
    this.append("thinking_level_change", { thinkingLevel: level });
  }

  sessionInfo(name: string) {
    this.append("session_info", { name: name.trim() });
  }

  private user(text: string) {
    this.wait(8_000, 6 * MINUTE);
    this.contextTokens += Math.ceil(text.length / 4);
    this.append("message", {
      message: {
        role: "user",
        content: [{ type: "text", text }],
        timestamp: this.clock - this.random.int(1, 4),
      },
    });
  }

  /** pi-ai's usage block, with the cost it computes from the model's prices. */
  private usage(outputChars: number, newChars: number) {
    const cost = this.model.cost;
    const output = Math.ceil(outputChars / 4) + this.random.int(20, 400);
    // Tokens new since the last call; the rest of the context (system prompt included) is cached.
    const fresh = Math.ceil(newChars / 4);
    const cacheRead = 4_000 + this.contextTokens;
    const openAi = isOpenAi(this.model);
    // Anthropic bills new tokens as cache writes; OpenAI as input, and has no cache writes.
    const input = openAi ? fresh + this.random.int(50, 400) : this.random.int(1, 12);
    const cacheWrite = openAi ? 0 : fresh;
    this.contextTokens += fresh + output;
    const costs = {
      input: (cost.input / 1_000_000) * input,
      output: (cost.output / 1_000_000) * output,
      cacheRead: (cost.cacheRead / 1_000_000) * cacheRead,
      cacheWrite: (cost.cacheWrite / 1_000_000) * cacheWrite,
      total: 0,
    };
    costs.total = costs.input + costs.output + costs.cacheRead + costs.cacheWrite;
    return {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: costs,
    };
  }

  private thinkingBlock(text: string): Record<string, unknown> {
    if (isOpenAi(this.model)) {
      const item = {
        id: `rs_${this.random.hex(48)}`,
        type: "reasoning",
        summary: [{ type: "summary_text", text }],
        encrypted_content: `gAAAAAB${this.random.chars(BASE64_ALPHABET, this.random.int(300, 900))}`,
      };
      return { type: "thinking", thinking: text, thinkingSignature: JSON.stringify(item) };
    }
    return {
      type: "thinking",
      thinking: text,
      thinkingSignature: this.random.chars(BASE64_ALPHABET, this.random.int(200, 700)),
    };
  }

  private textBlock(text: string): Record<string, unknown> {
    if (isOpenAi(this.model))
      return {
        type: "text",
        text,
        textSignature: JSON.stringify({ v: 1, id: `msg_${this.random.hex(48)}` }),
      };
    return { type: "text", text };
  }

  private toolCallId(): string {
    if (isOpenAi(this.model)) return `call_${this.random.chars(BASE62, 24)}|fc_${this.random.hex(48)}`;
    return `toolu_01${this.random.chars(BASE62, 22)}`;
  }

  /** pi's AssistantMessage, keys in the order pi-ai builds it (responseId arrives with the stream). */
  private assistant(
    content: Record<string, unknown>[],
    stopReason: string,
    newChars: number,
    errorMessage?: string,
  ) {
    const requestStart = this.clock + this.random.int(2, 30);
    this.wait(2_500, 70_000);
    const outputChars = JSON.stringify(content).length;
    const message: Record<string, unknown> = {
      role: "assistant",
      content,
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.id,
      usage: this.usage(outputChars, newChars),
      stopReason,
      timestamp: requestStart,
      responseId: isOpenAi(this.model)
        ? `resp_${this.random.hex(48)}`
        : `msg_01${this.random.chars(BASE62, 22)}`,
    };
    if (errorMessage) message.errorMessage = errorMessage;
    return this.append("message", { message });
  }

  private toolResult(
    call: ToolCall,
    content: Record<string, unknown>[],
    isError: boolean,
    details?: unknown,
  ) {
    this.wait(40, call.name === "bash" ? 40_000 : 900);
    // pi leaves `details` undefined for most tools, and JSON drops it; `{}` for errors.
    const message = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content,
      ...(details === undefined ? {} : { details }),
      isError,
      timestamp: this.clock - this.random.int(0, 3),
    };
    this.append("message", { message });
  }

  private thinkingText(): string {
    const { project } = this.plan;
    const file = this.random.pick(project.files);
    const parts = [
      `The user wants this done without changing behaviour for existing data. Let me look at ${file} first.`,
      `${capitalize(this.random.pick(VERBS))}${capitalize(this.random.pick(NOUNS))} is called from two places; I need to check both before changing its signature.`,
      `The failing case is the empty ${this.random.pick(NOUNS)}: the loop never runs, so the ${this.random.pick(NOUNS)} stays undefined.`,
      "I should run the tests before and after, otherwise I can't tell whether I broke something that was already broken.",
      `Maybe the simplest fix is in ${this.random.pick(project.files)}, not here. Let me check how it is used.`,
    ];
    return this.random.sample(parts, this.random.int(1, 4)).join(" ");
  }

  /** The base64 length of the next screenshot: the first one of a full-page session is over 1 MB. */
  private screenshotSize(): number {
    const first = this.screenshotsLeft === this.plan.screenshots;
    const size =
      first && this.plan.fullPageScreenshot
        ? this.random.between(1.15e6, 1.5e6)
        : this.random.logBetween(150e3, 700e3);
    return Math.round(size);
  }

  /** One model call that uses tools, and the tool results that follow it. */
  private toolRound(newChars: number): number {
    const { project } = this.plan;
    const random = this.random;
    const calls: ToolCall[] = [];
    // Base64 length of each screenshot this round reads, by tool call id.
    const screenshotSizes = new Map<string, number>();
    let plannedImageBytes = 0;
    const callCount = random.int(1, this.scale > 0.5 ? 3 : 2);
    for (let i = 0; i < callCount; i++) {
      const id = this.toolCallId();
      let name = random.pick(["read", "read", "read", "bash", "bash", "edit", "write"]);
      let args: Record<string, unknown>;
      const screenshot = this.screenshotsLeft > 0 && random.chance(0.6) ? this.screenshotSize() : 0;
      // Screenshots only while they fit: the image sessions end near their planned size.
      if (screenshot > 0 && this.bytes + plannedImageBytes + screenshot <= this.plan.targetBytes) {
        name = "read";
        args = { path: random.pick(project.screenshots) };
        screenshotSizes.set(id, screenshot);
        plannedImageBytes += screenshot;
        this.screenshotsLeft -= 1;
      } else if (name === "read") args = { path: random.pick(project.files) };
      else if (name === "bash") args = { command: random.pick(project.commands) };
      else if (name === "edit") {
        const style = STYLES[project.language];
        args = {
          path: random.pick(project.files),
          edits: [
            {
              oldText: style.body(identifiers(random), random),
              newText: style.body(identifiers(random), random),
            },
          ],
        };
      } else
        args = {
          path: random.pick(project.files),
          content: sourceFile(random, project.language, random.int(8, 40)),
        };
      calls.push({ type: "toolCall", id, name, arguments: args });
    }
    const content: Record<string, unknown>[] = [];
    if (this.thinkingLevel !== "off" && random.chance(0.7))
      content.push(this.thinkingBlock(this.thinkingText()));
    if (random.chance(0.6)) content.push(this.textBlock(this.openingLine(calls[0]!)));
    content.push(...calls);
    this.assistant(content, "toolUse", newChars);

    let resultChars = 0;
    for (const call of calls) {
      const args = call.arguments;
      const path = String(args.path ?? "");
      const screenshot = screenshotSizes.get(call.id);
      if (screenshot !== undefined) {
        const image = screenshotPng(random, screenshot);
        this.toolResult(
          call,
          [
            { type: "text", text: "Read image file [image/png]" },
            { type: "image", data: image.toString("base64"), mimeType: "image/png" },
          ],
          false,
        );
        resultChars += 6_000; // images cost about this many tokens, whatever their size on disk
      } else if (call.name === "read") {
        this.readFiles.add(path);
        const text = sourceFile(
          random,
          project.language,
          random.int(20, Math.max(30, Math.round(380 * this.scale))),
        );
        this.toolResult(call, [{ type: "text", text }], false);
        resultChars += text.length;
      } else if (call.name === "bash") {
        const command = String(args.command);
        const fail = random.chance(0.2);
        const output = commandOutput(random, project, command, fail, this.scale);
        if (fail) {
          const text = `${output ? `${output}\n\n` : ""}Command exited with code 1`;
          this.toolResult(call, [{ type: "text", text }], true, {});
          resultChars += text.length;
        } else {
          this.toolResult(call, [{ type: "text", text: output || "(no output)" }], false);
          resultChars += output.length;
        }
      } else if (call.name === "edit") {
        this.modifiedFiles.add(path);
        const edits = args.edits as Array<{ oldText: string; newText: string }>;
        const line = random.int(5, 300);
        const diff = edits.map((edit) => `-${line} ${edit.oldText}\n+${line} ${edit.newText}`).join("\n");
        this.toolResult(
          call,
          [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
          false,
          {
            diff,
            firstChangedLine: line,
          },
        );
        resultChars += diff.length;
      } else {
        this.modifiedFiles.add(path);
        const text = `Successfully wrote ${String(args.content).length} bytes to ${path}`;
        this.toolResult(call, [{ type: "text", text }], false);
        resultChars += text.length;
      }
    }
    return resultChars;
  }

  private openingLine(call: ToolCall): string {
    const path = String(call.arguments.path ?? "");
    if (call.name === "read" && path.endsWith(".png")) return `Let me look at the screenshot \`${path}\`.`;
    if (call.name === "read")
      return this.random.pick([`Let me read \`${path}\` first.`, `I'll check how \`${path}\` does it.`]);
    if (call.name === "bash")
      return this.random.pick([
        "Let me run the tests to see where we are.",
        "Checking the current state.",
        "Running it again to confirm.",
      ]);
    return this.random.pick([`Now I'll update \`${path}\`.`, `Making the change in \`${path}\`.`]);
  }

  private summaryText(): string {
    const files = this.random.sample(this.plan.project.files, this.random.int(1, 3));
    const changes = [
      "handle the empty case before the loop",
      "extracted the parsing into its own function so it can be tested",
      "added tests for the edge cases we discussed",
      "replaced the per-item call with one batched call",
      "kept the old behaviour behind the existing option",
      "removed the dead branch that could never run",
    ];
    const lines = files.map((file) => `- \`${file}\`: ${this.random.pick(changes)}`);
    const closing = this.random.pick([
      "All tests pass and the type check is clean.",
      "Tests pass. I did not touch the other call site; it has the same pattern if you want it changed too.",
      "One thing to watch: this changes the output order, which a script might rely on.",
      "The benchmark went from 3.1 s to 0.9 s on my run.",
    ]);
    return `Done. Here's what changed:\n\n${lines.join("\n")}\n\n${closing}`;
  }

  /** A user prompt and everything the agent does until it answers. */
  turn(prompt: string) {
    this.turnCount += 1;
    this.user(prompt);
    let newChars = prompt.length;
    const rounds = this.random.int(1, this.scale > 0.5 ? 6 : 3);
    for (let round = 0; round < rounds; round++) newChars = this.toolRound(newChars);
    const content: Record<string, unknown>[] = [];
    if (this.thinkingLevel !== "off" && this.random.chance(0.4))
      content.push(this.thinkingBlock(this.thinkingText()));
    content.push(this.textBlock(this.summaryText()));
    this.assistant(content, "stop", newChars);
  }

  /** The user pressed Escape while the model was still answering. */
  abortedTurn(prompt: string) {
    this.user(prompt);
    this.assistant([this.textBlock("I'll start by")], "aborted", prompt.length, "Request was aborted");
  }

  /** `!command` typed by the user: a `bashExecution` message (counted as "other" by our scanner). */
  userBash() {
    const command = this.random.pick(this.plan.project.commands);
    this.wait(5_000, 2 * MINUTE);
    const output = commandOutput(this.random, this.plan.project, command, false, this.scale);
    this.append("message", {
      message: {
        role: "bashExecution",
        command,
        output,
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: this.clock - this.random.int(200, 3_000),
      },
    });
  }

  /** An extension's saved state (`pi.appendEntry`): a `custom` entry, keys in pi's order. */
  extensionState() {
    this.wait(500, 5_000);
    const entry: Entry = {
      type: "custom",
      customType: "todo-list",
      data: {
        items: this.random
          .sample(this.plan.project.tasks, 2)
          .map((text, index) => ({ text, done: index === 0 })),
      },
      id: this.newId(),
      parentId: this.leaf,
      timestamp: this.clock,
    };
    this.entries.push(entry);
    this.leaf = entry.id;
    this.bytes += JSON.stringify(entry).length + 1;
  }

  /** `/label` on an earlier entry: it becomes a child of the current leaf, as in pi. */
  label() {
    const targets = this.entries.filter((entry) => entry.type === "message");
    const target = targets[Math.floor(targets.length / 2)];
    if (!target) return;
    this.wait(3_000, 30_000);
    this.append("label", {
      targetId: target.id,
      label: this.random.pick(["checkpoint", "before refactor", "working version"]),
    });
  }

  /** The entries from the first one to the leaf: what pi sends to the model (abandoned branches left out). */
  private currentPath(): Entry[] {
    const byId = new Map(this.entries.map((entry) => [entry.id, entry]));
    const path: Entry[] = [];
    for (let entry = this.leaf === null ? undefined : byId.get(this.leaf); entry;) {
      path.unshift(entry);
      entry = entry.parentId === null ? undefined : byId.get(entry.parentId as string);
    }
    return path;
  }

  /** `/tree` back to an earlier user message: its parent becomes the leaf, optionally with a summary of the abandoned path. */
  branch(withSummary: boolean) {
    const users = this.currentPath().filter(
      (entry) => (entry.message as { role?: string } | undefined)?.role === "user",
    );
    const target = users[users.length - 1];
    if (!target || users.length < 2) return;
    this.leaf = target.parentId as string | null;
    this.wait(10_000, 90_000);
    if (withSummary) {
      this.append("branch_summary", {
        fromId: this.leaf ?? "root",
        summary: `## Goal\nTry a different approach to ${this.random.pick(NOUNS)} handling.\n\n## Progress\n### Done\n- [x] Tried caching the ${this.random.pick(NOUNS)}; made it slower\n\n## Next Steps\n1. Go back and keep the original structure`,
        details: { readFiles: [...this.readFiles], modifiedFiles: [...this.modifiedFiles] },
        fromHook: false,
      });
    }
  }

  /** Auto-compaction: pi summarizes the older part of the context and keeps the recent entries. */
  compaction() {
    // Like pi, keep the most recent messages of the current path (the kept ones must be on it).
    const kept = this.currentPath().filter((entry) => entry.type === "message");
    const firstKept = kept[Math.max(0, kept.length - 12)];
    if (!firstKept) return;
    this.wait(15_000, 60_000);
    const readFiles = [...this.readFiles].filter((file) => !this.modifiedFiles.has(file));
    const modifiedFiles = [...this.modifiedFiles];
    const files = `${readFiles.length > 0 ? `\n\n<read-files>\n${readFiles.join("\n")}\n</read-files>` : ""}${
      modifiedFiles.length > 0 ? `\n\n<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>` : ""
    }`;
    const summary = [
      "## Goal",
      this.opening,
      "",
      "## Constraints & Preferences",
      "- Keep the public API unchanged",
      "- Tests must pass before committing",
      "",
      "## Progress",
      "### Done",
      ...modifiedFiles.map((file) => `- [x] Updated \`${file}\``),
      "",
      "### In Progress",
      `- [ ] ${capitalize(this.random.pick(VERBS))} the remaining ${this.random.pick(NOUNS)} cases`,
      "",
      "## Next Steps",
      "1. Run the full test suite",
      "2. Update the README",
    ].join("\n");
    this.append("compaction", {
      summary: summary + files,
      firstKeptEntryId: firstKept.id,
      tokensBefore: 150_000 + this.random.int(0, 35_000),
      details: { readFiles, modifiedFiles },
      fromHook: false,
    });
    this.contextTokens = Math.round(this.contextTokens * 0.15);
  }

  /**
   * Turns until the file reaches its planned size. Rare events happen at fixed turns, and a session
   * that has any runs at least `EVENT_TURNS` turns, so a small session still gets them.
   */
  run(opening: string) {
    const plan = this.plan;
    const random = this.random;
    const hasEvents =
      plan.renamed ||
      plan.nameCleared ||
      plan.modelSwitch ||
      plan.thinkingSwitch ||
      plan.label ||
      plan.userBash;
    const minTurns = hasEvents || plan.branch !== "none" || plan.aborted ? EVENT_TURNS : 1;
    let compacted = false;
    this.opening = opening;
    this.turn(opening);
    if (plan.name) this.sessionInfo(plan.name);
    if (plan.extensionState) this.extensionState();
    while (this.bytes < plan.targetBytes || this.turnCount < minTurns) {
      const next = this.turnCount + 1;
      if (plan.resumedAfterDays && next === 3)
        this.clock += plan.resumedAfterDays * DAY + random.int(0, 8) * HOUR;
      else if (random.chance(0.08)) this.clock += random.int(1, 5) * HOUR; // lunch, a meeting
      if (plan.aborted && next === 2) this.abortedTurn(random.pick(FOLLOW_UPS));
      if (plan.modelSwitch && next === 2) {
        this.wait(2_000, 20_000);
        this.modelChange(this.model === OPUS ? SONNET : OPUS);
      }
      if (plan.thinkingSwitch && next === 3) {
        this.wait(2_000, 20_000);
        this.thinkingLevelChange(this.thinkingLevel === "high" ? "medium" : "high");
      }
      if (plan.userBash && next === 3) this.userBash();
      if (plan.branch !== "none" && next === 4) this.branch(plan.branch === "summary");
      if (plan.targetBytes >= 300_000 && !compacted && this.bytes > plan.targetBytes * 0.6) {
        compacted = true;
        this.compaction();
      }
      this.turn(random.pick(FOLLOW_UPS));
      if (plan.label && this.turnCount === 2) this.label();
      if (plan.renamed && this.turnCount === 3) this.sessionInfo(`${plan.name ?? "Session"}, part 2`);
      if (plan.nameCleared && this.turnCount === 3) this.sessionInfo("");
    }
  }
}

/** Turns an entry built with relative times into pi's JSON line. */
function serialize(entry: Entry, startMs: number): string {
  const copy: Entry = { ...entry, timestamp: new Date(startMs + (entry.timestamp as number)).toISOString() };
  const message = entry.message as Record<string, unknown> | undefined;
  if (message) copy.message = { ...message, timestamp: startMs + (message.timestamp as number) };
  return JSON.stringify(copy);
}

/** pi's folder name for a cwd: `--<cwd without its leading slash, / \ : replaced by ->--`. */
export function piFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** pi's file name: `<ISO time with : and . replaced by ->_<session id>.jsonl`. */
function piFileName(createdMs: number, id: string): string {
  return `${new Date(createdMs).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** What a written session's entries are, to fork it later. */
interface EntryFacts {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
  timeMs: number;
  targetId?: string;
}

/** A session as written: its lines after the header, and enough facts to fork it. */
interface WrittenSession {
  path: string;
  plan: SessionPlan;
  lines: string[];
  facts: EntryFacts[];
  lastMs: number;
}

// ---------------------------------------------------------------------------------------------
// The whole store
// ---------------------------------------------------------------------------------------------

/** Called before each folder or file is created, with its path relative to the store. */
type BeforeCreate = (relativePath: string) => void;

const THINKING_LEVELS = ["off", "low", "medium", "medium", "high"];

function pickModel(random: Random): DemoModel {
  const roll = random.next();
  if (roll < 0.55) return SONNET;
  if (roll < 0.72) return OPUS;
  if (roll < 0.78) return HAIKU;
  return CODEX;
}

function pickWeighted(random: Random, projects: readonly DemoProject[]): DemoProject {
  const total = projects.reduce((sum, project) => sum + project.weight, 0);
  let roll = random.next() * total;
  for (const project of projects) {
    roll -= project.weight;
    if (roll < 0) return project;
  }
  return projects[0]!;
}

function writeSessionFile(
  root: string,
  beforeCreate: BeforeCreate,
  cwd: string,
  startMs: number,
  id: string,
  lines: string[],
  lastMs: number,
): { path: string; bytes: number } {
  const folder = piFolderName(cwd);
  const folderPath = join(root, folder);
  if (!existsSync(folderPath)) {
    beforeCreate(folder);
    mkdirSync(folderPath);
  }
  const fileName = piFileName(startMs, id);
  const path = join(folderPath, fileName);
  beforeCreate(`${folder}/${fileName}`);
  const content = `${lines.join("\n")}\n`;
  // "wx": never overwrite a file that is already there, whoever wrote it.
  writeFileSync(path, content, { flag: "wx" });
  // "Last used" is the file's mtime: make it the time of the last entry, as if pi had just written it.
  // In seconds, half a millisecond in: the conversion to nanoseconds truncates, and `lastMs` exactly
  // could come out one millisecond early.
  const lastUsed = (lastMs + 0.5) / 1000;
  utimesSync(path, lastUsed, lastUsed);
  return { path, bytes: Buffer.byteLength(content) };
}

function factsOf(entries: readonly Entry[], startMs: number): EntryFacts[] {
  return entries.map((entry) => {
    const role = (entry.message as { role?: string } | undefined)?.role;
    return {
      id: entry.id,
      parentId: (entry.parentId as string | null | undefined) ?? null,
      type: entry.type,
      ...(role ? { role } : {}),
      timeMs: startMs + (entry.timestamp as number),
      ...(typeof entry.targetId === "string" ? { targetId: entry.targetId } : {}),
    };
  });
}

/** Flags for the rare events; each one is forced on some session so every store has them all. */
const RARE_EVENTS = [
  "renamed",
  "nameCleared",
  "label",
  "branch",
  "summaryBranch",
  "userBash",
  "extensionState",
  "aborted",
  "long",
  "fullPageScreenshot",
] as const;

function buildDemoStore(
  dir: string,
  options: DemoStoreOptions,
  beforeCreate: BeforeCreate,
): DemoStoreSummary {
  const nowMs = (options.now ?? new Date()).getTime();
  const random = new Random(options.seed ?? DEFAULT_SEED);
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });

  // Every project gets a few sessions; the rest follow the weights.
  const sessionCount = random.int(68, 78);
  const assigned: DemoProject[] = PROJECTS.flatMap((project) => [project, project, project]);
  while (assigned.length < sessionCount) assigned.push(pickWeighted(random, PROJECTS));
  const projectOf = random.sample(assigned, assigned.length);

  // Image-heavy sessions (1–4 MB) only where the agent has screenshots or plots to look at.
  const withScreenshots = projectOf.flatMap((project, index) =>
    project.screenshots.length > 0 ? [index] : [],
  );
  const imageSessions = random.sample(withScreenshots, 5);
  const others = projectOf.map((_, index) => index).filter((index) => !imageSessions.includes(index));
  const forced = new Map<number, Set<(typeof RARE_EVENTS)[number]>>();
  const force = (index: number, event: (typeof RARE_EVENTS)[number]) => {
    const events = forced.get(index) ?? new Set();
    events.add(event);
    forced.set(index, events);
  };
  const carriers = random.sample(others, RARE_EVENTS.length - 1);
  for (const [at, index] of carriers.entries()) force(index, RARE_EVENTS[at]!);
  force(imageSessions[0]!, "fullPageScreenshot");

  const written: WrittenSession[] = [];
  let bytes = 0;
  for (let index = 0; index < sessionCount; index++) {
    const project = projectOf[index]!;
    const events = forced.get(index) ?? new Set();
    const isImage = imageSessions.includes(index);
    const isLong = events.has("long") || (!isImage && random.chance(0.03));
    const targetBytes = isImage
      ? Math.round(random.between(events.has("fullPageScreenshot") ? 2.2e6 : 1.1e6, 3.8e6))
      : isLong
        ? Math.round(random.between(320e3, 900e3))
        : Math.round(random.logBetween(5e3, 200e3));
    const task = random.int(0, project.tasks.length - 1);
    const named = random.chance(0.65) || events.has("renamed") || events.has("nameCleared");
    const branch: SessionPlan["branch"] = events.has("summaryBranch")
      ? "summary"
      : events.has("branch") || random.chance(0.06)
        ? "plain"
        : "none";
    const plan: SessionPlan = {
      random: random.child(),
      project,
      model: pickModel(random),
      thinkingLevel: random.pick(THINKING_LEVELS),
      targetBytes,
      // Enough that images, not text, make up most of an image session.
      screenshots: isImage ? Math.ceil(targetBytes / 150_000) : 0,
      fullPageScreenshot: events.has("fullPageScreenshot"),
      modelSwitch: random.chance(0.15),
      thinkingSwitch: random.chance(0.15),
      label: events.has("label") || random.chance(0.08),
      branch,
      userBash: events.has("userBash") || random.chance(0.08),
      extensionState: events.has("extensionState"),
      aborted: events.has("aborted") || random.chance(0.05),
      ...(named ? { name: project.names[task] ?? project.names[0]! } : {}),
      ...(events.has("renamed") ? { renamed: true } : {}),
      ...(events.has("nameCleared") ? { nameCleared: true } : {}),
      ...(random.chance(0.12) ? { resumedAfterDays: random.int(1, 9) } : {}),
    };

    // When it happened: mostly in the last weeks, a few months ago, two still going within the hour.
    const age =
      index === 0
        ? random.between(112, 119) * DAY
        : index === 1
          ? random.between(95, 104) * DAY
          : 120 * DAY * random.next() ** 2.2 + random.between(0, 6) * HOUR;
    const endsWithinTheHour = index === 2 || index === 3;
    const margin = endsWithinTheHour ? random.between(2, 50) * MINUTE : random.between(20, 240) * MINUTE;

    const builder = new SessionBuilder(plan, { leaf: null, ids: [], clock: random.int(0, 3) });
    // A new pi session records its model and thinking level first (written with the first reply).
    builder.modelChange(plan.model);
    builder.thinkingLevelChange(plan.thinkingLevel);
    builder.run(project.tasks[task]!);
    const duration = builder.clock;
    // Times are relative until now: place the session, never later than `now - margin`.
    const latestStart = nowMs - margin - duration;
    const startMs = Math.round(endsWithinTheHour ? latestStart : Math.min(nowMs - age, latestStart));

    const id = uuidV7(plan.random, startMs);
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: new Date(startMs).toISOString(),
      cwd: project.cwd,
    };
    const lines = builder.entries.map((entry) => serialize(entry, startMs));
    const lastMs = startMs + (builder.entries.at(-1)!.timestamp as number);
    const file = writeSessionFile(
      root,
      beforeCreate,
      project.cwd,
      startMs,
      id,
      [JSON.stringify(header), ...lines],
      lastMs,
    );
    bytes += file.bytes;
    written.push({ path: file.path, plan, lines, facts: factsOf(builder.entries, startMs), lastMs });
  }

  // Forks: `/fork` inside a project (a copy of the path to the chosen reply, screenshots and all —
  // forks are a real way stores fill up) and a session carried over into another project (all entries).
  const forkable = written.filter((session) => session.lastMs < nowMs - 4 * DAY && session.facts.length > 12);
  const mostImages = [...forkable].sort((a, b) => b.plan.screenshots - a.plan.screenshots)[0];
  // The API work carried on in the web app that calls the API.
  const [webApp, api] = [PROJECTS[1]!, PROJECTS[2]!];
  const textOnly = forkable.filter((session) => session !== mostImages && session.plan.screenshots === 0);
  const crossParent = textOnly.find((session) => session.plan.project === api) ?? textOnly[0];
  const forks: Array<{ parent: WrittenSession; into: DemoProject; wholeFile: boolean }> = [];
  if (mostImages) forks.push({ parent: mostImages, into: mostImages.plan.project, wholeFile: false });
  if (crossParent) {
    const into = crossParent.plan.project === webApp ? api : webApp;
    forks.push({ parent: crossParent, into, wholeFile: true });
  }
  for (const { parent, into, wholeFile } of forks) {
    const { lines, leaf, ids, copiedUntilMs } = wholeFile
      ? copyWholeSession(parent)
      : copyPathForFork(parent, random);
    const plan: SessionPlan = {
      random: random.child(),
      project: into,
      model: parent.plan.model,
      thinkingLevel: parent.plan.thinkingLevel,
      targetBytes: Math.round(random.logBetween(20e3, 120e3)), // on top of what it copied
      screenshots: 0,
      fullPageScreenshot: false,
      modelSwitch: false,
      thinkingSwitch: false,
      label: false,
      branch: "none",
      userBash: false,
      extensionState: false,
      aborted: false,
      name: `${parent.plan.name ?? random.pick(into.names)} (fork)`,
    };
    const builder = new SessionBuilder(plan, { leaf, ids, clock: random.int(1_000, 20_000) });
    builder.run(random.pick(FOLLOW_UPS));
    // After what it copied, and finished a few days ago at the latest.
    const latestStart = nowMs - 3 * DAY - builder.clock;
    const forkMs = Math.round(
      Math.max(copiedUntilMs + MINUTE, Math.min(latestStart, copiedUntilMs + random.between(0.2, 30) * HOUR)),
    );
    const id = uuidV7(plan.random, forkMs);
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: new Date(forkMs).toISOString(),
      cwd: into.cwd,
      parentSession: parent.path,
    };
    lines.unshift(JSON.stringify(header));
    lines.push(...builder.entries.map((entry) => serialize(entry, forkMs)));
    const lastMs = forkMs + (builder.entries.at(-1)!.timestamp as number);
    const file = writeSessionFile(root, beforeCreate, into.cwd, forkMs, id, lines, lastMs);
    bytes += file.bytes;
    written.push({ path: file.path, plan, lines: [], facts: [], lastMs });
  }
  return { sessions: written.length, bytes };
}

/** What a fork starts from: the copied lines, the entry it continues from, and the ids already used. */
interface ForkStart {
  lines: string[];
  leaf: string;
  ids: string[];
  copiedUntilMs: number;
}

/** Like pi's `forkFrom`: every entry of the parent, as it is. */
function copyWholeSession(parent: WrittenSession): ForkStart {
  const last = parent.facts.at(-1)!;
  return {
    lines: [...parent.lines],
    leaf: last.id,
    ids: parent.facts.map((fact) => fact.id),
    copiedUntilMs: parent.lastMs,
  };
}

/**
 * Like pi's `createBranchedSession`: the path from the first entry to a reply in the middle,
 * without labels, then the labels of entries on that path re-added after it with new ids.
 */
function copyPathForFork(parent: WrittenSession, random: Random): ForkStart {
  const replies = parent.facts.flatMap((fact, index) => (fact.role === "assistant" ? [index] : []));
  const leafIndex = replies[Math.floor(replies.length * 0.6)] ?? parent.facts.length - 1;
  const indexById = new Map(parent.facts.map((fact, index) => [fact.id, index]));
  const path: number[] = [];
  for (let at: number | undefined = leafIndex; at !== undefined;) {
    path.unshift(at);
    const parentId: string | null = parent.facts[at]!.parentId;
    at = parentId === null ? undefined : indexById.get(parentId);
  }
  const kept = path.filter((index) => parent.facts[index]!.type !== "label");
  const lines = kept.map((index) => parent.lines[index]!);
  const ids = new Set(kept.map((index) => parent.facts[index]!.id));
  let leaf = parent.facts[kept.at(-1)!]!.id;
  let copiedUntilMs = parent.facts[leafIndex]!.timeMs;
  // The latest label of each entry on the path, in the order pi's label map holds them.
  const labels = new Map<string, { label: string; timestamp: string }>();
  for (const [index, fact] of parent.facts.entries()) {
    if (fact.type !== "label" || !fact.targetId || !ids.has(fact.targetId)) continue;
    const entry = JSON.parse(parent.lines[index]!) as { label?: string; timestamp: string };
    if (entry.label) labels.set(fact.targetId, { label: entry.label, timestamp: entry.timestamp });
    else labels.delete(fact.targetId);
  }
  for (const [targetId, { label, timestamp }] of labels) {
    let id = random.hex(8);
    while (ids.has(id)) id = random.hex(8);
    ids.add(id);
    lines.push(JSON.stringify({ type: "label", id, parentId: leaf, timestamp, targetId, label }));
    leaf = id;
    copiedUntilMs = Math.max(copiedUntilMs, Date.parse(timestamp));
  }
  return { lines, leaf, ids: [...ids], copiedUntilMs };
}

/**
 * Writes a demo store into `dir` (a pi `sessions` folder: one `--<cwd>--` folder per project).
 * Refuses to overwrite a file that is already there.
 */
export function generateDemoStore(dir: string, options: DemoStoreOptions = {}): DemoStoreSummary {
  return buildDemoStore(dir, options, () => {});
}

// ---------------------------------------------------------------------------------------------
// Generate once, repair a half-written store
// ---------------------------------------------------------------------------------------------

/**
 * Next to the sessions folder, never inside it, so no scan sees them: the journal lists every path
 * the generator creates, before it creates it; the marker is written last, so it means "complete".
 */
export function demoStoreMarkers(dir: string) {
  const parent = dirname(resolve(dir));
  return { journal: join(parent, ".demo-created"), complete: join(parent, ".demo-complete") };
}

/** Whether every folder from `root` down to `path`'s folder is a real folder (no symlink to follow out). */
function onlyRealFolders(root: string, path: string): boolean {
  for (let folder = dirname(path); folder !== root; folder = dirname(folder)) {
    if (!folder.startsWith(root + sep)) return false;
    try {
      if (!lstatSync(folder).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Removes what an earlier, unfinished run created: only journaled paths, only inside `root`, nothing through a symlink. */
function removeJournaled(root: string, journal: string) {
  let text: string;
  try {
    text = readFileSync(journal, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const files: string[] = [];
  const folders: string[] = [];
  for (const line of text.split("\n")) {
    let relativePath: unknown;
    try {
      relativePath = JSON.parse(line);
    } catch {
      continue; // empty, or cut off by a crash before anything was created for it
    }
    if (typeof relativePath !== "string" || isAbsolute(relativePath)) continue;
    const path = resolve(root, relativePath);
    if (!path.startsWith(root + sep) || !onlyRealFolders(root, path)) continue;
    (path.endsWith(".jsonl") ? files : folders).push(path);
  }
  for (const path of files) {
    try {
      if (lstatSync(path).isFile()) unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  // Folders last, deepest first, and only when empty: whatever someone else put there stays.
  for (const path of folders.sort((a, b) => b.length - a.length)) {
    try {
      if (lstatSync(path).isDirectory()) rmdirSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    }
  }
}

/**
 * Makes sure `dir` holds a complete demo store: nothing to do if one was finished earlier, else
 * removes what an unfinished run left behind (and nothing else) and generates a fresh one.
 */
export async function ensureDemoStore(dir: string, options: DemoStoreOptions = {}): Promise<void> {
  const root = resolve(dir);
  const { journal, complete } = demoStoreMarkers(root);
  let haveFolder = false;
  try {
    haveFolder = statSync(root).isDirectory();
  } catch {}
  if (haveFolder && existsSync(complete)) return;

  removeJournaled(root, journal);
  rmSync(complete, { force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(journal, "");
  const summary = buildDemoStore(root, options, (relativePath) =>
    appendFileSync(journal, `${JSON.stringify(relativePath)}\n`),
  );
  const note = { folder: basename(root), ...summary, generatedAt: new Date().toISOString() };
  writeFileSync(complete, `${JSON.stringify(note)}\n`);
}
