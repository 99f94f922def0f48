// The live dashboard in a real browser against the real server: while an agent writes (a line
// appended to a session file, a new session file), the overview's totals, the treemap and the
// growth legend move, and the sessions table changes its row or adds one — all without a reload
// (a mark left on `window` survives), and without loading the whole table again. An open detail
// drawer follows its session too, and says when its file went.
import { randomBytes } from "node:crypto";
import { appendFileSync, readFileSync, rmSync, statSync } from "node:fs";
import type { Page } from "@playwright/test";
import { formatBytes } from "../shared/format.js";
import { assistantMessage, setModified, writeSession } from "../test-support/pi-store.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

/** Time for the server to see a change and send its look (fs.watch, then a batch). */
const LIVE = { timeout: 15_000 };

function setUp(home: string) {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  const paths = (
    [
      ["/work/app", 4],
      ["/work/app", 2],
      ["/work/lib", 3],
    ] as const
  ).map(([cwd, turns], i) => {
    const path = writeSession(root, cwd, turns).getSessionFile()!;
    setModified(path, new Date(Date.now() - (2 + i) * 86_400_000));
    return path;
  }) as [string, string, string];
  return { root, paths };
}

/** One assistant message appended as pi appends it: a JSON line whose parent is the file's last entry. */
function appendMessage(path: string, text: string): number {
  const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!) as { id: string };
  const line = `${JSON.stringify({
    type: "message",
    id: randomBytes(4).toString("hex"),
    parentId: last.id,
    timestamp: new Date().toISOString(),
    message: assistantMessage(text),
  })}\n`;
  appendFileSync(path, line);
  return Buffer.byteLength(line);
}

const sizeOf = (paths: readonly string[]) => paths.reduce((sum, p) => sum + statSync(p).size, 0);
const rowOf = (page: Page, path: string) =>
  page.locator(`[data-testid="session-row"]:has(td[title="${path}"])`);

/** Marks the page; `samePage()` is true as long as it was not loaded again. */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { liveMark?: boolean }).liveMark = true));
  return () => page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark === true);
}

test("the overview follows an agent writing: totals, the treemap's level kept, growth's latest point", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("live")).toHaveText("Live", LIVE);
  const samePage = await markPage(page);
  const total = page.getByTestId("total-bytes");
  await expect(total).toHaveAttribute("data-bytes", String(sizeOf(paths)));

  // Into /work/lib's sessions on the treemap, and the growth chart by namespace.
  // The tiles' keyboard layer (the mouse goes through it to the canvas): Enter picks as a click does.
  await page.locator('[data-testid="treemap-tile"][data-key="/work/lib"]').press("Enter");
  await expect(page.getByTestId("treemap-breadcrumb")).toContainText("/work/lib");
  await page.getByTestId("growth-view-namespace").click();
  const libGrowth = page.locator('[data-testid="growth-legend-item"][data-name="/work/lib"]');
  await expect(libGrowth).toHaveAttribute("data-bytes", String(statSync(paths[2]).size));

  const added = appendMessage(paths[2], "the agent goes on writing ".repeat(200));
  await expect(total).toHaveAttribute("data-bytes", String(sizeOf(paths)), LIVE);
  expect(sizeOf(paths)).toBeGreaterThan(added);
  await expect(
    page.locator('[data-testid="namespace-row"][data-namespace="/work/lib"] [data-testid="namespace-bytes"]'),
  ).toHaveAttribute("data-bytes", String(statSync(paths[2]).size));
  await expect(libGrowth).toHaveAttribute("data-bytes", String(statSync(paths[2]).size), LIVE);
  // The treemap stays where it was taken, its session's tile at its new size.
  await expect(page.getByTestId("treemap-breadcrumb")).toContainText("/work/lib");
  const tile = page.getByTestId("treemap-tile");
  await expect
    .poll(() => tile.getAttribute("aria-label"), LIVE)
    .toContain(formatBytes(statSync(paths[2]).size));
  await expect(tile).toHaveCount(1);
  expect(await samePage()).toBe(true);
});

test("the sessions table follows an agent writing: a row grows, a new session is a new row, no reload", async ({
  page,
  home,
  serve,
}) => {
  const { root, paths } = setUp(home);
  const server = await serve();
  /** Each request for the sessions table (its query: "" is the whole table). */
  const tableLoads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/sessions") tableLoads.push(url.search);
  });
  await page.goto(server.url);
  await expect(page.getByTestId("live")).toHaveText("Live", LIVE);
  const samePage = await markPage(page);
  await page.getByTestId("nav-sessions").click();
  await expect(page.locator('section.sessions[data-complete="true"]')).toBeVisible();
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  const loaded = tableLoads.length;

  const size = rowOf(page, paths[1]).locator("td[data-bytes]");
  await expect(size).toHaveAttribute("data-bytes", String(statSync(paths[1]).size));
  appendMessage(paths[1], "a long answer ".repeat(500));
  await expect(size).toHaveAttribute("data-bytes", String(statSync(paths[1]).size), LIVE);
  await expect(rowOf(page, paths[1]).locator(".col-lastUsedAt")).toContainText("just now");

  // pi starts a session: its file appears, and with it a row.
  const started = writeSession(root, "/work/new", 2).getSessionFile()!;
  await expect(page.getByTestId("session-row")).toHaveCount(4, LIVE);
  await expect(rowOf(page, started).locator("td[data-bytes]")).toHaveAttribute(
    "data-bytes",
    String(statSync(started).size),
    LIVE,
  );
  await expect(page.getByTestId("shown-count")).toHaveText("4 of 4");
  await expect(page.getByTestId("filter-namespace").getByRole("option", { name: "/work/new" })).toHaveCount(
    1,
  );

  // Both came as changes to the table the page holds: it was not loaded again.
  expect(tableLoads.slice(loaded)).toEqual([]);
  // The overview says the same, still the same page.
  await page.getByTestId("nav-overview").click();
  await expect(page.getByTestId("total-count")).toHaveText("4");
  await expect(page.getByTestId("total-bytes")).toHaveAttribute(
    "data-bytes",
    String(sizeOf([...paths, started])),
  );
  expect(await samePage()).toBe(true);
});

test("the open drawer follows its session: pi's next turn shows in its size and entries; a file deleted elsewhere is said gone", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("live")).toHaveText("Live", LIVE);
  await page.getByTestId("nav-sessions").click();
  await rowOf(page, paths[0]).getByTestId("open-session").click();
  const drawer = page.getByTestId("drawer");
  await expect(drawer.getByTestId("drawer-path")).toHaveText(paths[0]);
  const entries = drawer.getByTestId("drawer-entries");
  const before = Number((await entries.textContent())!.split(" ")[0]);
  const size = drawer.getByTestId("drawer-size");
  await expect(size).toHaveAttribute("data-bytes", String(statSync(paths[0]).size));

  appendMessage(paths[0], "the next turn ".repeat(300));
  await expect(size).toHaveAttribute("data-bytes", String(statSync(paths[0]).size), LIVE);
  await expect(entries).toContainText(`${before + 1} (`);
  await expect(drawer.getByTestId("drawer-gone")).toHaveCount(0);
  await expect(drawer.getByTestId("drawer-pin")).toBeEnabled();

  // Another program deletes it: the drawer stays, says so, and offers no pin for what went.
  rmSync(paths[0]);
  await expect(drawer.getByTestId("drawer-gone")).toBeVisible(LIVE);
  await expect(drawer.getByTestId("drawer-path")).toHaveText(paths[0]);
  await expect(drawer.getByTestId("drawer-pin")).toHaveCount(0);
  await expect(drawer.getByTestId("drawer-entries")).toContainText(`${before + 1} (`);
});
