// The overview in a real browser: the quota card at each level (70/90/100%) with its colour and
// words, hard-block mode said plainly, the treemap's drill-down and breadcrumb, and the growth chart
// with its estimated (backfilled) points explained.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatBytes } from "../shared/format.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { axe, expect, test } from "./serve-fixture.js";

function setUp(home: string) {
  const agentDir = join(home, ".pi", "agent");
  const root = join(agentDir, "sessions");
  const paths = [
    ["/work/big", 12],
    ["/work/big", 10],
    ["/work/small", 1],
  ].map(([cwd, turns], i) => {
    const path = writeSession(root, cwd as string, turns as number).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    return path;
  });
  mkdirSync(agentDir, { recursive: true });
  const total = paths.reduce((sum, p) => sum + statSync(p).size, 0);
  const config = (extra: object) =>
    writeFileSync(join(agentDir, "session-retention.json"), JSON.stringify(extra));
  return { total, config, paths };
}

test("the quota card at 70, 90 and 100%: level, colour, meaning; hard-block mode is said", async ({
  page,
  home,
  serve,
}) => {
  const { total, config } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  const colours = new Set<string>();
  for (const [ratio, level, meaning] of [
    [0.5, "ok", "below 70% of every limit"],
    [0.75, "info", "past 70% of a limit"],
    [0.92, "warn", "past 90% of a limit"],
    [1, "critical", "at or over a limit"],
  ] as const) {
    config({ quota: { maxTotalSizeBytes: Math.ceil(total / ratio), maxSessionCount: null } });
    // The config file is read on every load (the token stays in the tab's sessionStorage).
    await page.reload();
    const card = page.getByTestId("quota-card");
    await expect(card).toHaveAttribute("data-level", level);
    await expect(card.getByTestId("quota-level")).toHaveText(level);
    await expect(card).toContainText(meaning);
    await expect(card.getByTestId("gauge-size")).toHaveAttribute("data-level", level);
    colours.add(await card.getByTestId("quota-level").evaluate((el) => getComputedStyle(el).color));
  }
  expect(colours.size).toBe(4); // each level has its own colour

  config({ mode: "hard-block", quota: { maxTotalSizeBytes: total } });
  await page.reload();
  await expect(page.getByTestId("quota-card")).toContainText("pi blocks input when critical");
});

test("treemap drills into a namespace and back; growth shows estimated points and toggles 7/30 days", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  const breadcrumb = page.getByTestId("treemap-breadcrumb");
  await expect(breadcrumb).toHaveText("All namespaces");
  // The largest namespace takes the left of the map.
  const map = page.getByTestId("treemap").locator("canvas");
  const box = (await map.boundingBox())!;
  await map.click({ position: { x: box.width * 0.1, y: box.height * 0.5 } });
  await expect(breadcrumb).toContainText("/work/big");
  await page.getByTestId("treemap-back").click();
  await expect(breadcrumb).toHaveText("All namespaces");

  // The first scan backfilled 30 days from creation times: marked as estimated.
  await expect(page.getByTestId("growth-estimated")).toBeVisible();
  // The default 20 GiB quota is thousands of times this store: said, not drawn (it would flatten the line).
  await expect(page.getByTestId("growth-quota-far")).toContainText(
    "The 20.0 GiB quota is far above this (<1% at most)",
  );
  await expect(page.locator(".growth canvas")).not.toHaveAttribute("aria-label", /quota/);
  await page.getByTestId("growth-7").click();
  await expect(page.getByTestId("growth-7")).toHaveAttribute("aria-pressed", "true");
});

test("growth by namespace: one stacked series per namespace of the store, adding up to the total", async ({
  page,
  home,
  serve,
}) => {
  const { total } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("growth-legend")).toHaveCount(0); // the total is the default
  await page.getByTestId("growth-view-namespace").click();
  await expect(page.getByTestId("growth-view-namespace")).toHaveAttribute("aria-pressed", "true");
  const items = page.getByTestId("growth-legend-item");
  // Largest first, named by the sessions' working directories.
  await expect(items).toHaveCount(2);
  expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-name")))).toEqual([
    "/work/big",
    "/work/small",
  ]);
  const latest = await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-bytes"))));
  expect(latest.reduce((a, b) => a + b, 0)).toBe(total);
  await expect(page.getByTestId("total-bytes")).toHaveAttribute("data-bytes", String(total));
  await expect(page.locator(".growth canvas")).toHaveAttribute(
    "aria-label",
    /stacked by namespace, 2 series/,
  );
  // Estimated (backfilled) points are still marked, and the numbers are there as a table.
  await expect(page.getByTestId("growth-estimated")).toBeVisible();
  await page.getByText("The numbers as a table").click();
  const table = page.getByTestId("growth-table");
  await expect(table.locator("thead th")).toHaveText(["Day", "/work/big", "/work/small", "Total"]);
  await expect(table.locator("tbody tr").first()).toContainText("(estimated)");
  await expect(table.locator("tbody tr").last()).not.toContainText("(estimated)");

  await page.getByTestId("growth-7").click();
  await expect(items).toHaveCount(2);
  await page.getByTestId("growth-view-total").click();
  await expect(page.getByTestId("growth-legend")).toHaveCount(0);
});

test("the headline answers in one sentence; the chart with its quota line is above the fold; rows open their sessions", async ({
  page,
  home,
  serve,
}) => {
  const { total, config, paths } = setUp(home);
  // Half the quota used; the policy lets the two older sessions go (the newest is kept).
  config({
    quota: { maxTotalSizeBytes: total * 2 },
    retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
  });
  const older = statSync(paths[0]!).size + statSync(paths[1]!).size;
  const server = await serve();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server.url);

  const headline = page.getByTestId("overview-headline");
  await expect(headline).toContainText(
    `50% of the ${formatBytes(total * 2)} quota used (${formatBytes(total)} in 3 sessions).`,
  );
  // Half the quota is far from full: what is old is said, the cleanup not urged.
  await expect(headline).toContainText(
    `2 of 3 sessions have not been used for 30 days. Cleaning up would free ${formatBytes(older)}; nothing has to go before the quota reaches 90%.`,
  );
  // The first scan estimated the history from creation times: all of it arrived this week, most in /work/big.
  const rate = Number(await page.getByTestId("growth-rate").getAttribute("data-bytes"));
  await expect(headline).toContainText(`Grew ${formatBytes(rate)} this week, most in /work/big`);
  await expect(page.getByTestId("growth-rate")).toHaveText(`+${formatBytes(rate)}/week`);

  // Above the fold at 1400×900: the headline, its button and the whole chart, which draws the quota.
  const chart = page.locator(".growth canvas");
  await expect(chart).toHaveAttribute(
    "aria-label",
    new RegExp(`against the ${formatBytes(total * 2)} quota`),
  );
  const box = (await chart.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(900);
  await expect(page.getByTestId("review-cleanup")).toBeInViewport();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await axe(page);
    expect(violations.map((v) => `${colorScheme} ${v.impact} ${v.id}`)).toEqual([]); // of any impact
  }

  // The next step: the wizard on the policy's plan.
  await page.getByTestId("review-cleanup").click();
  await expect(page.getByTestId("wizard")).toContainText("Clean by policy");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("wizard")).toHaveCount(0);

  // A namespace row opens its sessions; a largest-session row opens that session.
  await page
    .locator('[data-testid="namespace-row"][data-namespace="/work/big"]')
    .getByTestId("namespace-open")
    .click();
  await expect(page.getByTestId("filter-namespace")).toHaveValue("/work/big");
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await page.getByTestId("nav-overview").click();
  const largest = page.getByTestId("largest-row").first();
  const id = (await largest.getAttribute("data-id"))!;
  await largest.getByTestId("largest-open").click();
  await expect(page.getByTestId("drawer")).toBeVisible();
  await expect(page.getByTestId("drawer")).toContainText(id.slice(0, 8));
});
