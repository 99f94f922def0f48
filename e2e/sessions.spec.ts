// The sessions table in a real browser: sorting and filtering agree with the files on disk, the
// detail drawer shows what the file holds and pins it (the row then cannot be selected), and a
// rescan picks up a session written after the page loaded.
import { statSync } from "node:fs";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

function setUp(home: string) {
  // Nothing kept by the policy's own rules: a pin is the only reason a row is kept here.
  const { root } = agentDirWith(home, KEEP_NOTHING);
  const spec: Array<[string, number]> = [
    ["/work/api", 1],
    ["/work/api", 6],
    ["/work/web", 3],
    ["/srv/data", 9],
    ["/srv/data", 2],
  ];
  const paths = spec.map(([cwd, turns], i) => {
    const path = writeSession(root, cwd, turns, i === 2 ? { name: "Checkout layout" } : {}).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    return path;
  });
  return { root, paths };
}

const shownBytes = async (page: import("@playwright/test").Page) =>
  (await page
    .getByTestId("session-row")
    .locator("td[data-bytes]")
    .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-bytes"))))) as number[];

test("sorts by size both ways, filters by namespace and text", async ({ page, home, serve }) => {
  const { paths } = setUp(home);
  const sizes = paths.map((p) => statSync(p).size);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(5);

  await page.getByTestId("sort-sizeBytes").click();
  await expect.poll(() => shownBytes(page)).toEqual([...sizes].sort((a, b) => b - a));
  await page.getByTestId("sort-sizeBytes").click();
  await expect.poll(() => shownBytes(page)).toEqual([...sizes].sort((a, b) => a - b));
  await expect(page.locator('th[aria-sort="ascending"]')).toContainText("Size");

  await page.getByTestId("filter-namespace").selectOption("/srv/data");
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await expect(page.getByTestId("shown-count")).toHaveText("2 of 5");
  await page.getByTestId("filter-namespace").selectOption("");
  await page.getByTestId("filter-text").fill("checkout");
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row")).toContainText("Checkout layout");
});

test("the drawer shows the file's contents and pins the session; a rescan finds a new session", async ({
  page,
  home,
  serve,
}) => {
  const { root } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  const row = page.getByTestId("session-row").filter({ hasText: "Checkout layout" });
  await row.getByTestId("open-session").click();
  const drawer = page.getByTestId("drawer");
  await expect(drawer.getByTestId("drawer-first-message")).toHaveText("question 0 in /work/web");
  await expect(drawer.getByTestId("drawer-entries")).toContainText("3 user, 3 assistant");

  await drawer.getByTestId("drawer-pin").click();
  await expect(drawer.getByTestId("drawer-kept")).toContainText("pinned");
  await expect(row.getByTestId("kept-badge")).toHaveText("pinned");
  await expect(row.getByTestId("row-select")).toBeDisabled();
  await drawer.getByTestId("drawer-unpin").click();
  await expect(row.getByTestId("kept-badge")).toHaveCount(0);
  await expect(row.getByTestId("row-select")).toBeEnabled();
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);

  const added = writeSession(root, "/work/new", 1).getSessionFile()!;
  setModified(added, new Date(Date.UTC(2026, 0, 20)));
  await page.getByTestId("rescan").click();
  await expect(page.getByTestId("session-row")).toHaveCount(6);
});

/** The policy's own plan, asked of the server as the page asks it (the token is in this tab's storage). */
const planCandidates = (page: import("@playwright/test").Page) =>
  planOf(page).then((plan) => plan.candidates.map((c) => c.id).sort());

const planOf = (page: import("@playwright/test").Page) =>
  page.evaluate(async () => {
    const token = sessionStorage.getItem("session-retention-token");
    const plan = (await (
      await fetch("/api/plan", { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      candidates: Array<{ id: string; sizeBytes: number }>;
    };
    return plan;
  });

test("each row says the policy's verdict; 'cleaned by the policy' shows exactly the plan's candidates; the drawer says it too", async ({
  page,
  home,
  serve,
}) => {
  // Older than 30 days goes, except the 2 most recent: 3 of the 5 (all from January 2026).
  const { root } = agentDirWith(home, {
    retention: { maxAgeDays: 30, minKeepRecentCount: 2, keepLastPerNamespace: 0 },
  });
  for (const [i, cwd] of ["/work/api", "/work/api", "/work/web", "/srv/data", "/srv/data"].entries()) {
    const path = writeSession(root, cwd, 1 + i, i === 4 ? { name: "Newest" } : {}).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
  }
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(5);
  const candidates = await planCandidates(page);
  expect(candidates).toHaveLength(3);

  const cleaned = page
    .getByTestId("session-row")
    .filter({ has: page.locator('[data-verdict="maxAgeDays"]') });
  await expect(cleaned.getByTestId("verdict")).toHaveText(Array(3).fill("would clean · older than 30 days"));
  const newest = page.getByTestId("session-row").filter({ hasText: "Newest" });
  await expect(newest.getByTestId("verdict")).toHaveText("kept · among the 2 most recent");

  await page.getByTestId("filter-status").selectOption("policy");
  await expect(page.getByTestId("shown-count")).toHaveText(`${candidates.length} of 5`);
  const shownIds = await page
    .getByTestId("session-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")!).sort());
  expect(shownIds).toEqual(candidates);
  // "Not kept" is a different question, and its label says so: the 3 plus the one no rule takes.
  await page.getByTestId("filter-status").selectOption("deletable");
  await expect(page.getByTestId("shown-count")).toHaveText("3 of 5");
  await page.getByTestId("filter-status").selectOption("");

  await newest.getByTestId("open-session").click();
  await expect(page.getByTestId("drawer-verdict")).toContainText("kept · among the 2 most recent");
  await page.keyboard.press("Escape");
  await cleaned.first().getByTestId("open-session").click();
  await expect(page.getByTestId("drawer-verdict")).toContainText("would clean · older than 30 days");
});

test("the overview's treemap highlights what the policy would clean, on the toggle", async ({
  page,
  home,
  serve,
}) => {
  const { root } = agentDirWith(home, {
    retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
  });
  for (const [i, cwd] of ["/work/api", "/work/api", "/work/web"].entries()) {
    const path = writeSession(root, cwd, 2 + i).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
  }
  const server = await serve();
  await page.goto(server.url);
  const map = page.getByTestId("treemap");
  await expect(map).toHaveAttribute("data-highlight-bytes", "0");
  const plan = await planOf(page);
  expect(plan.candidates).toHaveLength(2);
  await page.getByTestId("treemap-policy").check();
  await expect(page.getByTestId("treemap-policy-total")).toContainText("would clean 2 sessions");
  const bytes = plan.candidates.reduce((sum, c) => sum + c.sizeBytes, 0);
  await expect(map).toHaveAttribute("data-highlight-bytes", String(bytes));
  await page.getByTestId("treemap-policy").uncheck();
  await expect(map).toHaveAttribute("data-highlight-bytes", "0");
});
