// The dashboard at 100,000 sessions, in real Chromium against the real `serve`: time to the first
// meaningful overview (totals on screen), time to sort the sessions table, rows in the DOM while
// scrolling, the JS bundle size (gzip), and the sessions page's first row. Targets: ≤ 1.5 s,
// ≤ 200 ms, ≤ 200 rows, ≤ 250 KB, ≤ 1.5 s.
// `npm run bench:ui [-- --quick]` (1/20 of the sessions with --quick).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { benchHome, median, startServe, writeResults } from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";

const quick = process.argv.includes("--quick");
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "b")!;
const RUNS = quick ? 2 : 5;
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const work = mkdtempSync(join(tmpdir(), "sr-ui-bench-"));
const home = join(work, "home");
const store = join(work, "store");
mkdirSync(home);
mkdirSync(store);
console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
await generateStore(spec, store);

const {
  child: server,
  base,
  token,
} = await startServe(join(repo, "bin", "session-retention.js"), store, benchHome(home));
// Warm: the server has taken its first look (the benchmark measures the page, not the scan).
await fetch(`${base}/api/summary`, { headers: { Authorization: `Bearer ${token}` } });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium" });
const overviewMs: number[] = [];
const sortMs: number[] = [];
let maxRows = 0;
const firstRowMs: number[] = [];
const completeMs: number[] = [];
const serverMs: number[] = [];
const pageWorkMs: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const started = Date.now();
    await page.goto(`${base}/#token=${token}`);
    await page.getByTestId("total-count").waitFor();
    overviewMs.push(Date.now() - started);
    await page.close();
  }

  // The sessions page from navigation to its first row, split into the server's answer to the
  // first page (request to last byte) and the page's own work (last byte to first row); and until
  // the whole table is in (filters, sorting and selection enabled).
  for (let i = 0; i < RUNS; i++) {
    const sessionsPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await sessionsPage.addInitScript(() => {
      const times = window as unknown as { firstRowAt?: number; completeAt?: number };
      const seen = new MutationObserver(() => {
        if (times.firstRowAt === undefined && document.querySelector('[data-testid="session-row"]'))
          times.firstRowAt = performance.now();
        if (document.querySelector('section.sessions[data-complete="true"]')) {
          times.completeAt = performance.now();
          seen.disconnect();
        }
      });
      document.addEventListener("DOMContentLoaded", () =>
        seen.observe(document.body, { childList: true, subtree: true }),
      );
    });
    await sessionsPage.goto(`${base}/#/sessions&token=${token}`);
    await sessionsPage.locator('section.sessions[data-complete="true"]').waitFor({ timeout: 120_000 });
    const timing = await sessionsPage.evaluate(() => {
      // The first request is the first page; the second, if any, the whole table.
      const [request] = performance
        .getEntriesByType("resource")
        .filter((e) => e.name.includes("/api/sessions")) as PerformanceResourceTiming[];
      const times = window as unknown as { firstRowAt: number; completeAt: number };
      return {
        firstRow: times.firstRowAt,
        complete: times.completeAt,
        requestStart: request!.startTime,
        responseEnd: request!.responseEnd,
      };
    });
    firstRowMs.push(timing.firstRow);
    completeMs.push(timing.complete);
    serverMs.push(timing.responseEnd - timing.requestStart);
    pageWorkMs.push(timing.firstRow - timing.responseEnd);
    await sessionsPage.close();
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/#/sessions&token=${token}`);
  await page.locator('section.sessions[data-complete="true"]').waitFor({ timeout: 120_000 });

  // Sort: from the click to the first frame painted with the new first row.
  for (let i = 0; i < RUNS; i++) {
    const column = i % 2 === 0 ? "sizeBytes" : "createdAt";
    sortMs.push(
      await page.evaluate(async (id) => {
        const firstRow = () => document.querySelector('[data-testid="session-row"]')?.getAttribute("data-id");
        const before = firstRow();
        const started = performance.now();
        (document.querySelector(`[data-testid="sort-${id}"]`) as HTMLButtonElement).click();
        for (;;) {
          await new Promise((r) => requestAnimationFrame(r));
          if (firstRow() !== before) return performance.now() - started;
          if (performance.now() - started > 10_000) return Number.NaN;
        }
      }, column),
    );
  }

  // Rows in the DOM while scrolling from top to bottom.
  const viewport = page.getByTestId("sessions-viewport");
  const height = await viewport.evaluate((el) => el.scrollHeight);
  for (let step = 0; step <= 20; step++) {
    await viewport.evaluate((el, top) => el.scrollTo(0, top), (height * step) / 20);
    await page.waitForTimeout(50);
    maxRows = Math.max(maxRows, await page.locator("tr[data-testid='session-row']").count());
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}

const assets = join(repo, "dist", "web", "assets");
const bundleGzip = readdirSync(assets)
  .filter((f) => f.endsWith(".js"))
  .reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);

const verdict = (ok: boolean) => (ok ? "pass" : "**FAIL**");
const overview = median(overviewMs);
const sort = median(sortMs);
const firstRow = median(firstRowMs);
const rows = [
  `| first meaningful overview (median of ${RUNS}) | ${overview.toFixed(0)} ms | ≤ 1,500 ms | ${verdict(overview <= 1500)} |`,
  `| sort ${spec.sessions.toLocaleString("en")} rows (median of ${RUNS}) | ${sort.toFixed(0)} ms | ≤ 200 ms | ${verdict(sort <= 200)} |`,
  `| most rows in the DOM while scrolling | ${maxRows} | ≤ 200 | ${verdict(maxRows <= 200)} |`,
  `| JS bundle | ${(bundleGzip / 1024).toFixed(0)} KB gzip | ≤ 250 KB | ${verdict(bundleGzip <= 250 * 1024)} |`,
  `| sessions page: navigation to the first row (median of ${RUNS}) | ${firstRow.toFixed(0)} ms | ≤ 1,500 ms | ${verdict(firstRow <= 1500)} |`,
  `| … of which the server's answer (first page), request to last byte (info) | ${median(serverMs).toFixed(0)} ms | | info |`,
  `| … of which the page's work, last byte to first row (info) | ${median(pageWorkMs).toFixed(0)} ms | | info |`,
  `| sessions page: navigation until all ${spec.sessions.toLocaleString("en")} rows can be filtered, sorted, selected (median of ${RUNS}, info) | ${median(completeMs).toFixed(0)} ms | | info |`,
];
const report = `# Dashboard benchmark\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, Chromium headless, ${spec.sessions.toLocaleString("en")} sessions (store B of the scan benchmark), the real \`serve\` on 127.0.0.1.\n\n| measurement | result | target | |\n| --- | --- | --- | --- |\n${rows.join("\n")}\n`;
if (!quick) await writeResults(join(repo, "bench", "ui-results.md"), report);
console.log(report);
