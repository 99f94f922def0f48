// The clean journey in a real browser against the real server and a store written by pi's own
// SessionManager: select three sessions → wizard → type DELETE → the files are in the trash on
// disk → undo → back byte-identical; a protected session cannot be selected; purge asks again,
// echoing count and bytes, and then the bytes are gone for good.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { generateStore } from "../bench/synthetic-store.js";
import { writeClaudeTranscript } from "../test-support/claude-transcript.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { BIN } from "../test-support/serve-child.js";
import { sized } from "../test-support/slow-lane.js";
import { snapshotTree, treeChanges } from "../test-support/tree-snapshot.js";
import { agentDirWith, expect, KEEP_NOTHING, test, violations } from "./serve-fixture.js";

/** Selects the first session row, opens the clean wizard on it and goes to its last step. */
async function wizardOnFirstRow(page: Page) {
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("session-row").nth(0).getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  return wizard;
}

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Every file under `dir` by content hash (the trash renames files, the bytes stay the same). */
function filesByHash(dir: string, into = new Map<string, string>()) {
  if (!existsSync(dir)) return into;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesByHash(path, into);
    else if (entry.isFile()) into.set(sha(path), path);
  }
  return into;
}

function setUp(home: string) {
  const { root } = agentDirWith(home, { ...KEEP_NOTHING, protection: { protectedPatterns: ["*incident*"] } });
  const paths: string[] = [];
  // Oldest first: the default sort (least recently used) shows them in this order.
  for (const [i, cwd] of ["/work/a", "/work/a", "/work/b", "/work/c", "/work/c"].entries()) {
    const path = writeSession(root, cwd, 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    paths.push(path);
  }
  const important = writeSession(root, "/work/a", 2, { name: "important incident" }).getSessionFile()!;
  // Written a moment ago it would count as active (grace period); protection is what this tests.
  setModified(important, new Date(Date.UTC(2026, 1, 1)));
  return { paths, important };
}

test("select three → DELETE → in the trash on disk → undo → byte-identical; protected rows cannot be selected", async ({
  page,
  home,
  serve,
}) => {
  const { paths, important } = setUp(home);
  const before = new Map(paths.map((p) => [p, readFileSync(p)]));
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(6);

  const protectedRow = page.locator(`[data-testid="session-row"]`).filter({ hasText: "important incident" });
  await expect(protectedRow.getByTestId("kept-badge")).toHaveText("protected");
  await expect(protectedRow.getByTestId("row-select")).toBeDisabled();

  // Click the first, shift-click the third: three rows, the oldest three.
  const rows = page.getByTestId("session-row");
  await rows.nth(0).getByTestId("row-select").click();
  await rows
    .nth(2)
    .getByTestId("row-select")
    .click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("selection-count")).toContainText("3 selected");

  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  await expect(wizard.getByTestId("wizard-usage")).toContainText("6 sessions");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("wizard-candidate")).toHaveCount(3);
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("review-count")).toHaveText("3");
  const bytes = paths.slice(0, 3).reduce((sum, p) => sum + statSync(p).size, 0);
  await expect(wizard.getByTestId("review-bytes")).toHaveAttribute("data-bytes", String(bytes));
  await wizard.getByTestId("wizard-next").click();

  const execute = wizard.getByTestId("wizard-execute");
  await expect(execute).toBeDisabled();
  await wizard.getByTestId("confirm-input").fill("delete"); // not the word asked for
  await expect(execute).toBeDisabled();
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await execute.click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("3");

  // On disk: gone from the store, the same bytes in the trash, the rest untouched.
  const trashed = filesByHash(join(home, ".local", "share", "Trash"));
  filesByHash(join(server.agentDir, "session-retention"), trashed);
  for (const path of paths.slice(0, 3)) {
    expect(existsSync(path)).toBe(false);
    expect(trashed.has(createHash("sha256").update(before.get(path)!).digest("hex"))).toBe(true);
  }
  for (const path of [...paths.slice(3), important]) expect(existsSync(path)).toBe(true);

  await wizard.getByTestId("undo").click();
  await expect(wizard.getByTestId("undo-result")).toContainText("Restored 3 sessions");
  for (const path of paths.slice(0, 3)) expect(readFileSync(path).equals(before.get(path)!)).toBe(true);

  await wizard.getByTestId("wizard-close").click();
  await expect(page.getByTestId("session-row")).toHaveCount(6);
  await expect(page.getByTestId("selection-count")).toContainText("0 selected");
});

test("one session needs no typed DELETE; purge asks again with count and bytes, then the bytes are gone", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const target = paths[0]!;
  const size = statSync(target).size;
  const hash = sha(target);
  const server = await serve();
  await page.goto(server.url);
  const wizard = await wizardOnFirstRow(page);
  await expect(wizard.getByTestId("confirm-input")).toHaveCount(0);
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await wizard.getByTestId("wizard-close").click();
  expect(existsSync(target)).toBe(false);

  await page.getByTestId("nav-trash").click();
  const row = page.locator(`[data-testid="trash-row"][data-path="${target}"]`);
  await row.getByRole("checkbox").check();
  await page.getByTestId("trash-purge").click();
  const dialog = page.getByTestId("purge-dialog");
  await expect(dialog.getByTestId("purge-summary")).toContainText("1 session");
  await expect(dialog.getByTestId("purge-summary").locator("span")).toHaveAttribute(
    "title",
    `${size.toLocaleString("en-US")} bytes`,
  );
  // Permanent: the button waits for the count to be typed.
  await expect(dialog.getByTestId("purge-confirm")).toBeDisabled();
  await dialog.getByTestId("purge-typed").fill("1");
  await dialog.getByTestId("purge-confirm").click();
  await expect(page.getByTestId("trash-outcome")).toContainText("Purged 1 session — freed");

  const everywhere = filesByHash(home);
  expect(everywhere.has(hash)).toBe(false);
});

test("select all matching a filter sends the filter, not ids; the plan is exactly the rows the table shows", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("filter-namespace").selectOption("/work/a");
  // Two of /work/a may go; the protected incident is shown but kept.
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  await page.getByTestId("select-all").check();
  await expect(page.getByTestId("selection-count")).toContainText("2 selected");
  await expect(page.getByTestId("selection-all-matching")).toBeVisible();

  const request = page.waitForRequest((r) => r.url().endsWith("/api/plan/selection"));
  await page.getByTestId("clean-selected").click();
  expect((await request).postDataJSON()).toEqual({
    filter: {
      text: "",
      namespace: "/work/a",
      store: "",
      status: "",
      warningsOnly: false,
      archivedOnly: false,
    },
  });
  const wizard = page.getByTestId("wizard");
  await expect(wizard).toContainText("Clean every session matching the filter");
  await wizard.getByTestId("wizard-next").click();
  // The candidates are named by their titles; their paths are in the cells' tooltips.
  const candidatePaths = () =>
    wizard
      .getByTestId("wizard-candidate")
      .locator("td.path")
      .evaluateAll((cells) => cells.map((c) => c.getAttribute("title")).sort());
  await expect.poll(candidatePaths).toEqual(paths.slice(0, 2).sort());
  await expect(wizard.getByTestId("wizard-filter-differs")).toHaveCount(0);
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("review-count")).toHaveText("2");
  const bytes = paths.slice(0, 2).reduce((sum, p) => sum + statSync(p).size, 0);
  await expect(wizard.getByTestId("review-bytes")).toHaveAttribute("data-bytes", String(bytes));

  // Deselecting one row makes it a hand selection again: ids are sent.
  await page.keyboard.press("Escape");
  await page.getByTestId("session-row").nth(0).getByTestId("row-select").click();
  await expect(page.getByTestId("selection-all-matching")).toHaveCount(0);
  const handPicked = page.waitForRequest((r) => r.url().endsWith("/api/plan/selection"));
  await page.getByTestId("clean-selected").click();
  expect(Object.keys((await handPicked).postDataJSON() as object)).toEqual(["ids"]);
});

test("a hand pick too long for one request: the wizard says how many of its ids fit and how to clean more, and sends nothing", async ({
  page,
  home,
  serve,
}) => {
  // 1,430 Claude Code sessions: every one selected, then one unticked, is a hand pick of 1,429 ids
  // (`claude:` and a uuid, 43 characters each) — more than one 64 KiB request carries (1,424).
  agentDirWith(home, KEEP_NOTHING);
  const old = new Date(Date.now() - 60 * 86_400_000);
  for (let i = 0; i < 1430; i++)
    writeClaudeTranscript(join(home, ".claude"), {
      id: `6f1c2a4e-0000-4000-8000-${String(i).padStart(12, "0")}`,
      cwd: `/work/p${i % 10}`,
      turns: 1,
      modified: old,
    });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("select-all").check();
  await expect(page.getByTestId("selection-count")).toContainText("1,430 selected");
  await page.getByTestId("session-row").nth(0).getByTestId("row-select").click();
  await expect(page.getByTestId("selection-count")).toContainText("1,429 selected");
  const asked: string[] = [];
  page.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await page.getByTestId("clean-selected").click();
  const error = page.getByTestId("wizard").getByTestId("wizard-error");
  await expect(error).toContainText(
    "1,429 sessions are selected; a hand-picked selection is sent as its ids, and one request takes 1,424 of these.",
  );
  await expect(error).toContainText("filter the table and tick the header box");
  expect(asked.filter((path) => path === "/api/plan/selection")).toEqual([]);
});

test("restoring onto a path that is taken again says so plainly and overwrites nothing", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const target = paths[0]!;
  const original = readFileSync(target);
  const server = await serve();
  await page.goto(server.url);
  const wizard = await wizardOnFirstRow(page);
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await wizard.getByTestId("wizard-close").click();
  expect(existsSync(target)).toBe(false);

  // Something writes a new file at the same path before the restore.
  writeFileSync(target, "a newer file\n");
  await page.getByTestId("nav-trash").click();
  const row = page.locator(`[data-testid="trash-row"][data-path="${target}"]`);
  await row.getByRole("checkbox").check();
  await page.getByTestId("trash-restore").click();

  await expect(page.getByTestId("trash-outcome")).toHaveText("Restored 0 sessions.");
  const notDone = page.getByTestId("trash-not-done");
  await expect(notDone).toContainText("1 session was not restored");
  await expect(notDone.getByTestId("trash-not-done-item")).toHaveAttribute("data-path", target);
  await expect(notDone).toContainText("a file is at this path again");
  await expect(notDone).toContainText("the trashed copy stays in the trash");
  await expect(row.getByTestId("trash-row-occupied")).toHaveText("original path taken");
  await expect(row).toContainText("in-trash");
  // Nothing was overwritten, and the trashed copy is intact.
  expect(readFileSync(target, "utf8")).toBe("a newer file\n");
  const trashed = filesByHash(join(home, ".local", "share", "Trash"));
  filesByHash(join(server.agentDir, "session-retention"), trashed);
  expect(trashed.has(createHash("sha256").update(original).digest("hex"))).toBe(true);
});

test("while the move runs the wizard cannot be closed: Escape, Cancel and Back do nothing, and the result with its Undo follows", async ({
  page,
  home,
  serve,
}) => {
  const { paths } = setUp(home);
  const server = await serve();
  // The real request to the real server, held back in the browser's network layer for a moment:
  // time enough to try to close the wizard while the move is under way.
  await page.route("**/api/operations/delete", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.goto(server.url);
  const wizard = await wizardOnFirstRow(page);
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("wizard-execute")).toHaveText("Moving…");
  await expect(wizard.getByTestId("wizard-moving")).toContainText("Stop after this item");
  await expect(wizard.getByTestId("wizard-cancel")).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(wizard).toBeVisible();
  // The move finishes and says what it did, with its Undo.
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await expect(wizard.getByTestId("undo")).toBeVisible();
  expect(existsSync(paths[0]!)).toBe(false);
});

/** A store of `count` sessions in /work/many, oldest first; under `config`. */
function manySessions(home: string, count: number, config: object) {
  const { root } = agentDirWith(home, config);
  return Array.from({ length: count }, (_, i) => {
    const path = writeSession(root, "/work/many", 2, {
      name: `many ${String(i).padStart(2, "0")}`,
    }).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    return path;
  });
}

test("policy clean: the candidates are a sortable table; an unticked row stays, the ticked go; a large clean asks to type and says its share", async ({
  page,
  home,
  serve,
}) => {
  // Older than 30 days goes: the five January sessions; the incident is protected.
  const { root } = agentDirWith(home, {
    ...KEEP_NOTHING,
    retention: { ...KEEP_NOTHING.retention, maxAgeDays: 30 },
    protection: { protectedPatterns: ["*incident*"] },
  });
  const paths = [1, 8, 2, 5, 3].map((turns, i) => {
    const path = writeSession(root, "/work/a", turns, { name: `session ${i}` }).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    return path;
  });
  const important = writeSession(root, "/work/a", 2, { name: "important incident" }).getSessionFile()!;
  const sizes = paths.map((p) => statSync(p).size);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("clean-policy").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  const rows = wizard.getByTestId("wizard-candidate");
  await expect(rows).toHaveCount(5);
  await expect(wizard.getByTestId("candidate-open")).toHaveText(paths.map((_, i) => `session ${i}`));
  expect(await violations(page), "wizard candidates").toEqual([]);

  // Sorted by size, largest first: the 8-turn session heads the table.
  await wizard.getByTestId("candidates-sort-sizeBytes").click();
  const shownSizes = () =>
    rows
      .locator("td[data-bytes]")
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-bytes"))));
  await expect.poll(shownSizes).toEqual([...sizes].sort((a, b) => b - a));
  await expect(rows.first()).toContainText("session 1");

  // Untick the largest: the totals follow, and only the four others go.
  const largest = await rows.first().getAttribute("data-id");
  await rows.first().getByTestId("candidate-tick").uncheck();
  const rest = sizes.reduce((a, b) => a + b, 0) - sizes[1]!;
  await expect(wizard.getByTestId("ticked-total")).toContainText("4 of 5 ticked");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("review-count")).toHaveText("4");
  await expect(wizard.getByTestId("review-bytes")).toHaveAttribute("data-bytes", String(rest));
  await wizard.getByTestId("wizard-next").click();
  // Four of six sessions, most of the bytes: typed, with the share.
  const storeBytes = rest + sizes[1]! + statSync(important).size;
  const share = `${(Math.round((rest / storeBytes) * 1000) / 10).toFixed(1)} %`;
  await expect(wizard.getByTestId("confirm-share")).toHaveText(`removes ${share} of the store`);
  await expect(wizard.getByTestId("wizard-execute")).toBeDisabled();
  const request = page.waitForRequest((r) => r.url().endsWith("/api/operations/delete"));
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();
  // One unticked of five: the shorter list goes — all of the preview except that one.
  const sent = (await request).postDataJSON() as { except?: string[]; ids?: string[] };
  expect(sent).toMatchObject({ except: [largest] });
  expect(sent.ids).toBeUndefined();
  await expect(wizard.getByTestId("result-moved")).toHaveText("4");
  expect(paths.map((p) => existsSync(p))).toEqual([false, true, false, false, false]);
  expect(existsSync(important)).toBe(true);
});

test("a small hand pick moves in one click with its share shown, and Undo puts it back", async ({
  page,
  home,
  serve,
}) => {
  const paths = manySessions(home, 12, KEEP_NOTHING);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(12);
  for (const i of [0, 1]) await page.getByTestId("session-row").nth(i).getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("confirm-input")).toHaveCount(0);
  await expect(wizard.getByTestId("confirm-small")).toContainText("2 sessions");
  await expect(wizard.getByTestId("confirm-share")).toHaveText(/^removes \d+\.\d % of the store$/);
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("2");
  expect(existsSync(paths[0]!)).toBe(false);
  await wizard.getByTestId("undo").click();
  await expect(wizard.getByTestId("undo-result")).toContainText("Restored 2 sessions");
  expect(existsSync(paths[0]!) && existsSync(paths[1]!)).toBe(true);
});

/** The API as the page calls it, with the server's token (from the address it printed). */
function apiOf(page: Page, url: string) {
  const token = url.split("#token=")[1]!;
  return async <T>(path: string): Promise<T> => {
    const response = await page.request.get(new URL(path, url).href, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status(), path).toBe(200);
    return (await response.json()) as T;
  };
}

/** The trash's entries for `paths` (by original path), as GET /api/trash answers. */
async function trashStates(get: ReturnType<typeof apiOf>, paths: readonly string[]) {
  const { entries } = await get<{ entries: { originalPath: string; state: string }[] }>("/api/trash");
  return paths.map((p) => entries.filter((e) => e.originalPath === p).map((e) => e.state));
}

test("Undo in the wizard, then the tab closed: every later page shows the delete as undone, with no Undo to offer", async ({
  page,
  context,
  home,
  serve,
}) => {
  const paths = manySessions(home, 12, KEEP_NOTHING);
  const store = [join(home, ".pi", "agent", "sessions")];
  const before = snapshotTree(store);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  for (const i of [0, 1]) await page.getByTestId("session-row").nth(i).getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("2");
  await wizard.getByTestId("undo").click();
  await expect(wizard.getByTestId("undo-result")).toContainText("Restored 2 sessions");
  await page.close(); // not Done: the server keeps the result

  const later = await context.newPage();
  const resumed = later.getByTestId("resumed-deletion");
  for (const visit of ["a new tab", "a reload"]) {
    if (visit === "a reload") await later.reload();
    else await later.goto(server.url);
    await expect(resumed.getByTestId("result-since"), visit).toHaveText(
      /^Undone: 2 sessions restored at .+\.$/,
    );
    await expect(resumed.getByTestId("result-undone")).toHaveText("moved to the trash, then put back");
    await expect(resumed.getByTestId("undo")).toHaveCount(0);
  }
  expect(await violations(later)).toEqual([]);
  const get = apiOf(later, server.url);
  expect(await trashStates(get, paths.slice(0, 2))).toEqual([["restored"], ["restored"]]);
  expect(await get("/api/operations/current")).toMatchObject({ since: { restored: 2, inTrash: 0 } });
  // Back byte for byte, and nothing left in the trash.
  expect(treeChanges(before, snapshotTree(store))).toEqual([]);
  expect(readdirSync(join(home, ".local", "share", "Trash", "files"))).toEqual([]);
});

test("a delete partly restored from the CLI: the page says what is still in the trash, and its Undo restores only that", async ({
  page,
  context,
  home,
  serve,
}) => {
  const paths = manySessions(home, 20, KEEP_NOTHING);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  for (const i of [0, 1, 2]) await page.getByTestId("session-row").nth(i).getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("3");
  await page.close();

  // One of the three back from a terminal, by its entry in the trash.
  const env = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: server.agentDir,
    XDG_DATA_HOME: join(home, ".local", "share"),
  };
  const listed = JSON.parse(
    execFileSync(process.execPath, [BIN, "trash", "list", "--json"], { env, encoding: "utf8" }),
  ) as { entries: { entryId: string; originalPath: string }[] };
  const entry = listed.entries.find((e) => e.originalPath === paths[1])!;
  execFileSync(process.execPath, [BIN, "trash", "restore", entry.entryId], { env, encoding: "utf8" });
  expect(existsSync(paths[1]!)).toBe(true);

  const later = await context.newPage();
  await later.goto(server.url);
  const resumed = later.getByTestId("resumed-deletion");
  await expect(resumed.getByTestId("result-since")).toHaveText(
    /^Partly undone: 1 of 3 sessions restored at .+; 2 still in the trash\.$/,
  );
  await resumed.getByTestId("undo").click();
  await expect(resumed.getByTestId("undo-result")).toHaveText("Restored 2 sessions.");
  await expect(resumed.getByTestId("result-since")).toHaveText(/^Undone: 3 sessions restored at .+\.$/);
  await expect(resumed.getByTestId("undo")).toHaveCount(0);
  for (const path of paths.slice(0, 3)) expect(existsSync(path)).toBe(true);

  await later.reload();
  await expect(resumed.getByTestId("result-since")).toHaveText(/^Undone: 3 sessions restored at .+\.$/);
  await expect(resumed.getByTestId("undo")).toHaveCount(0);
  expect(await trashStates(apiOf(later, server.url), paths.slice(0, 3))).toEqual([
    ["restored"],
    ["restored"],
    ["restored"],
  ]);
});

test("the wizard shows every plan warning: a quota the policy cannot meet says so", async ({
  page,
  home,
  serve,
}) => {
  // Three sessions, a count limit of one, and the three most recent kept: the quota cannot be met.
  manySessions(home, 3, {
    quota: { maxSessionCount: 1 },
    retention: { minKeepRecentCount: 3, keepLastPerNamespace: 0 },
  });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("clean-policy").click();
  const wizard = page.getByTestId("wizard");
  await expect(wizard.getByTestId("plan-warning")).toHaveAttribute("data-code", "quota-unreachable");
  await expect(wizard.getByTestId("plan-warning")).toContainText("quota cannot be met");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("plan-warning")).toBeVisible();
});

test("a candidate's name opens its details in the drawer, the wizard staying open", async ({
  page,
  home,
  serve,
}) => {
  const paths = manySessions(home, 3, {
    ...KEEP_NOTHING,
    retention: { ...KEEP_NOTHING.retention, maxAgeDays: 30 },
  });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("clean-policy").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("candidate-open").filter({ hasText: "many 01" }).click();
  await expect(page.getByTestId("drawer-path")).toHaveText(paths[1]!);
  await expect(page.getByTestId("drawer-verdict")).toContainText("would clean · older than 30 days");
  await expect(wizard.getByTestId("wizard-candidate")).toHaveCount(3);
});

/**
 * A store large enough for a delete to take a while: `count` small pi sessions written by the
 * benchmark's generator (real pi session files, old enough to be cleaned), and a config that lets
 * a clean empty it.
 */
async function largeStore(home: string, count: number) {
  const { root } = agentDirWith(home, {
    retention: { ...KEEP_NOTHING.retention, allowEmptyStore: true },
  });
  const { files } = await generateStore(
    {
      name: "e2e",
      seed: 17,
      sessions: count,
      folders: 12,
      targetLines: 0,
      targetBytes: 0,
      linesRange: [3, 6],
    },
    root,
  );
  return files;
}

/** Every session of the table selected ("all matching"), the wizard through to its typed confirmation, and Move. */
async function deleteEverything(page: Page, count: number) {
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("select-all").check();
  await expect(page.getByTestId("selection-count")).toContainText(
    `${count.toLocaleString("en-US")} selected`,
  );
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();
  return wizard;
}

/**
 * Sessions of the large store: 5,000 in `npm test`, where a delete of them still runs for seconds
 * after its first progress (so Stop and a reload land in it); the 20,000 the issue asks about in
 * `npm run test:full` (test-support/slow-lane.ts; both tests together take about two minutes on a
 * shared machine). I17_SESSIONS=3000 runs them on another size while developing.
 */
const SESSIONS = Number(process.env.I17_SESSIONS ?? sized(5_000, 20_000));
const still = (files: string[]) => files.filter((f) => existsSync(f)).length;

test("a large delete shows its progress from the server; Stop ends it after the current item, lists what moved with its Undo", async ({
  page,
  home,
  serve,
}) => {
  test.setTimeout(600_000);
  const files = await largeStore(home, SESSIONS);
  const server = await serve();
  await page.goto(server.url);
  const wizard = await deleteEverything(page, SESSIONS);

  const text = wizard.getByTestId("operation-progress-text");
  await expect(text).toHaveAttribute("aria-live", "polite");
  await expect(text).toHaveText(new RegExp(`^Moving [1-9][\\d,]* of ${SESSIONS.toLocaleString("en-US")}$`), {
    timeout: 60_000,
  });
  await expect(wizard.locator("progress")).toHaveAttribute("max", String(SESSIONS));
  // Escape and Cancel do nothing while it runs.
  await page.keyboard.press("Escape");
  await expect(wizard.getByTestId("wizard-cancel")).toBeDisabled();
  await wizard.getByTestId("operation-stop").click();

  await expect(wizard.getByTestId("result-stopped")).toContainText(
    new RegExp(`Stopped after [\\d,]+ of ${SESSIONS.toLocaleString("en-US")}:`),
    {
      timeout: 60_000,
    },
  );
  const moved = Number(await wizard.getByTestId("result-moved").textContent());
  expect(moved).toBeGreaterThan(0);
  expect(moved).toBeLessThan(SESSIONS);
  expect(await violations(page)).toEqual([]);
  // The disk agrees: what moved is gone, the rest is where it was.
  expect(still(files)).toBe(SESSIONS - moved);
  // The table looked again at once: what moved is out of the selection, the rest still selected.
  await expect(page.getByTestId("selection-count")).toContainText(
    `${(SESSIONS - moved).toLocaleString("en-US")} selected`,
  );

  await wizard.getByTestId("undo").click();
  await expect(wizard.getByTestId("undo-result")).toContainText(`Restored ${moved} sessions`, {
    timeout: 60_000,
  });
  expect(still(files)).toBe(SESSIONS);
  await wizard.getByTestId("wizard-close").click();
  await expect(wizard).toBeHidden();
});

test("a page reloaded mid-delete finds the deletion: its progress, then the result with its Undo, until Done", async ({
  page,
  home,
  serve,
}) => {
  test.setTimeout(600_000);
  const files = await largeStore(home, SESSIONS);
  const server = await serve();
  await page.goto(server.url);
  const wizard = await deleteEverything(page, SESSIONS);
  await expect(wizard.getByTestId("operation-progress-text")).toHaveText(/^Moving [1-9]/, {
    timeout: 60_000,
  });
  await page.reload();

  const resumed = page.getByTestId("resumed-deletion");
  await expect(resumed).toBeVisible();
  await expect(resumed.getByTestId("result-moved")).toHaveText(String(SESSIONS), { timeout: 300_000 });
  expect(still(files)).toBe(0);
  await expect(resumed.getByTestId("undo")).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await resumed.getByTestId("resumed-close").click();
  await expect(resumed).toBeHidden();
  // Dismissed: the next load shows no old result.
  await page.reload();
  await expect(page.getByTestId("nav-sessions")).toBeVisible();
  await expect(resumed).toBeHidden();
});

test("the progress view passes axe (no violation of any impact); its Stop is a named button", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  // The status answers held back: the wizard stays on the server's first answer ("Preparing")
  // for as long as axe looks at it.
  await page.route("**/api/operations/current", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.continue();
  });
  await page.goto(server.url);
  const wizard = await wizardOnFirstRow(page);
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("operation-progress-text")).toContainText("Preparing");
  await expect(wizard.getByRole("button", { name: "Stop after this item" })).toBeEnabled();
  expect(await violations(page)).toEqual([]);
  await expect(wizard.getByTestId("result-moved")).toHaveText("1", { timeout: 20_000 });
});

/** Presses Tab until the element with `testId` has the focus (at most `max` presses). */
async function tabTo(page: Page, testId: string, max = 60) {
  for (let i = 0; i < max; i++) {
    if ((await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))) === testId) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${testId} was not reached in ${max} Tab presses`);
}

test("the delete flow by keyboard only: select, wizard, move, undo, done", async ({ page, home, serve }) => {
  const { paths } = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await tabTo(page, "nav-sessions");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("session-row")).toHaveCount(6);
  // The rows are one tab stop (the session's name); Space there selects the row.
  await tabTo(page, "open-session");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-count")).toContainText("1 selected");
  await tabTo(page, "clean-selected", 20);
  await page.keyboard.press("Enter");
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) {
    await tabTo(page, "wizard-next");
    await page.keyboard.press("Enter");
  }
  await tabTo(page, "wizard-execute");
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  expect(existsSync(paths[0]!)).toBe(false);
  await tabTo(page, "undo");
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("undo-result")).toContainText("Restored 1 session");
  expect(existsSync(paths[0]!)).toBe(true);
  await tabTo(page, "wizard-close");
  await page.keyboard.press("Enter");
  await expect(wizard).toBeHidden();
});
