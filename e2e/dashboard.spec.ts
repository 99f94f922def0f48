// The walking skeleton end to end: a store written by pi's own SessionManager, the real server,
// a real browser — the numbers on screen must be the numbers on disk.
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeSession } from "../test-support/pi-store.js";
import { expect, test } from "./serve-fixture.js";

/** `count` sessions of `turns` exchanges each in `cwd`, written by pi's SessionManager. */
function writeSessions(agentDir: string, cwd: string, count: number, turns: number) {
  for (let s = 0; s < count; s++) writeSession(join(agentDir, "sessions"), cwd, turns);
}

function filesOnDisk(root: string) {
  const files: Array<{ folder: string; size: number }> = [];
  for (const folder of readdirSync(root)) {
    for (const name of readdirSync(join(root, folder))) {
      if (name.endsWith(".jsonl")) files.push({ folder, size: statSync(join(root, folder, name)).size });
    }
  }
  return files;
}

test("overview shows the count, size and namespaces of a pi store", async ({ page, home, serve }) => {
  const agentDir = join(home, ".pi", "agent");
  writeSessions(agentDir, "/home/dev/web app", 3, 2);
  writeSessions(agentDir, "/home/dev/api.server", 2, 4);
  writeSessions(agentDir, "/srv/data-pipeline", 1, 1);
  const files = filesOnDisk(join(agentDir, "sessions"));
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);

  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("total-count")).toHaveText(String(files.length));
  await expect(page.getByTestId("total-bytes")).toHaveAttribute("data-bytes", String(totalBytes));
  await expect(page.getByTestId("namespace-count")).toHaveText("3");
  await expect(page.getByTestId("demo-banner")).toHaveCount(0);

  const rows = page.getByTestId("namespace-row");
  await expect(rows).toHaveCount(3);
  for (const [cwd, count] of [
    ["/home/dev/web app", 3],
    ["/home/dev/api.server", 2],
    ["/srv/data-pipeline", 1],
  ] as const) {
    const row = page.locator(`[data-testid="namespace-row"][data-namespace="${cwd}"]`);
    await expect(row.getByTestId("namespace-sessions")).toHaveText(String(count));
  }
});

test("with no pi store, a generated demo store is shown and labelled", async ({ page, serve }) => {
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("demo-banner")).toContainText("demo store");
  const demoRoot = join(server.agentDir, "session-retention", "demo", "sessions");
  const files = filesOnDisk(demoRoot);
  expect(files.length).toBeGreaterThan(10);
  await expect(page.getByTestId("total-count")).toHaveText(files.length.toLocaleString("en-US"));
  await expect(page.getByTestId("total-bytes")).toHaveAttribute(
    "data-bytes",
    String(files.reduce((sum, f) => sum + f.size, 0)),
  );
});

test("a server that went away is reported, not shown as a broken page", async ({ page, home, serve }) => {
  writeSessions(join(home, ".pi", "agent"), "/home/dev/solo", 1, 1);
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("total-count")).toHaveText("1");
  await server.stop();
  await page.getByRole("button", { name: "Rescan" }).click();
  await expect(page.getByTestId("error-banner")).toContainText("not reachable");
});

test("the quota level follows the config file, and an invalid config turns the page read-only", async ({
  page,
  home,
  serve,
}) => {
  const agentDir = join(home, ".pi", "agent");
  writeSessions(agentDir, "/home/dev/quota", 4, 2);
  const totalBytes = filesOnDisk(join(agentDir, "sessions")).reduce((sum, f) => sum + f.size, 0);
  const configFile = join(agentDir, "session-retention.json");
  // 95% of the size limit: warn.
  writeFileSync(configFile, JSON.stringify({ quota: { maxTotalSizeBytes: Math.ceil(totalBytes / 0.95) } }));
  const server = await serve();
  await page.goto(server.url);
  await expect(page.getByTestId("quota-card")).toHaveAttribute("data-level", "warn");
  await expect(page.getByTestId("quota-card")).toContainText("mode warn-only");
  await expect(page.getByTestId("config-banner")).toHaveCount(0);

  writeFileSync(configFile, JSON.stringify({ quota: { maxTotalSizeByte: 1 } }));
  await page.getByRole("button", { name: "Rescan" }).click();
  const banner = page.getByTestId("config-banner");
  await expect(banner).toContainText("read-only");
  await expect(banner).toContainText(
    'quota.maxTotalSizeByte: unknown key (did you mean "maxTotalSizeBytes"?)',
  );
  await expect(page.getByTestId("quota-card")).toContainText("unknown");
  // The sessions are still shown.
  await expect(page.getByTestId("total-count")).toHaveText("4");
});

test("the token comes from the fragment, leaves the address bar, is never served, and is required", async ({
  page,
  home,
  serve,
}) => {
  writeSessions(join(home, ".pi", "agent"), "/home/dev/solo", 1, 1);
  const server = await serve();
  const token = /#token=([A-Za-z0-9_-]+)$/.exec(server.url)?.[1];
  expect(token).toBeDefined();
  await page.goto(server.url);
  await expect(page.getByTestId("total-count")).toHaveText("1");
  expect(page.url()).not.toContain(token!);
  const bare = server.url.replace(/#.*/, "");
  for (const asset of [
    bare,
    ...(await page.evaluate(() => Array.from(document.querySelectorAll("script"), (s) => s.src))),
  ])
    expect(await (await fetch(asset)).text()).not.toContain(token!);
  // Another tab without the token gets nothing but a clear message.
  const other = await page.context().newPage();
  await other.goto(bare);
  await expect(other.getByTestId("error-banner")).toContainText("no valid access token");
});

test("a second serve for the same state dir points at the running one instead of starting", async ({
  home,
  serve,
}) => {
  writeSessions(join(home, ".pi", "agent"), "/home/dev/solo", 1, 1);
  const first = await serve();
  const second = await serve();
  await second.stop();
  expect(second.output()).toContain("already running");
  expect(second.url).toBe(first.url);
});
