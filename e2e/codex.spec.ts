// Codex in a real browser, against a real `serve` that finds `~/.codex` in a temporary home on its
// own (written by test-support/codex-store.ts) and deletes through the real `codex` binary (the
// real-agent suite's pinned @openai/codex, test-support/test-agents.ts): a family — a thread, the
// fork made from it and a fork of that fork — is shown in the detail drawer, selected as one, cleaned
// through the wizard (forks first), and is gone from disk, with `codex doctor`'s verdict on the store
// in the result; a subagent Codex deletes with its spawner is named in the wizard and moves with it
// (the spawner alone is left out, said why; with the subagent unticked it is not counted), and a
// session lost outside the selection is a red banner on the result.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodexStoreBuilder, writeCodexStore } from "../test-support/codex-store.js";
import { agentBin } from "../test-support/test-agents.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

// The server deletes Codex sessions through this binary (it inherits the environment).
process.env.SESSION_RETENTION_CODEX = agentBin("codex");

test("a Codex family: shown in the drawer, selected as one, cleaned forks first", async ({
  page,
  home,
  serve,
}) => {
  agentDirWith(home, { ...KEEP_NOTHING, activity: { graceMinutes: 1 } });
  const store = writeCodexStore(join(home, ".codex"));
  const [root] = store.threads;
  const family = store.threads.filter((t) => {
    for (let at = t; ;) {
      const up = at.options.spawnedBy ?? at.options.forkOf;
      if (!up) return at === root;
      at = up;
    }
  });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  const filter = page.getByTestId("filter-agent");
  await expect(filter.locator("option")).toContainText(["Codex"]);
  await filter.selectOption("codex");
  // The root is kept while its fork reads from it: it cannot be chosen alone.
  const rootRow = page.locator(`[data-testid="session-row"][data-id="codex:${root!.id}"]`);
  await expect(rootRow.getByTestId("row-select")).toBeDisabled();

  // The fork of the fork, opened: its family, and the button that selects all of it.
  const fork2 = store.threads.find((t) => t.options.forkOf?.options.forkOf)!;
  await page
    .locator(`[data-testid="session-row"][data-id="codex:${fork2.id}"]`)
    .getByTestId("open-session")
    .click();
  const drawer = page.getByTestId("drawer");
  await expect(drawer.getByTestId("drawer-family")).toContainText("3 sessions");
  await expect(drawer.getByTestId("drawer-select-family")).toHaveText("Select the family (3 of 3)");
  await page.screenshot({ path: "test-results/codex-family-drawer.png" });
  await drawer.getByTestId("drawer-select-family").click();
  await page.getByRole("button", { name: "Close details" }).click();
  await expect(page.getByTestId("selection-count")).toContainText("3 selected");
  await expect(rootRow.getByTestId("row-select")).toBeChecked();
  await expect(rootRow.getByTestId("row-select")).toBeEnabled();

  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  // A small share of the store: one click (shared/confirmation.ts).
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("3");
  for (const t of family) expect(existsSync(t.path), t.path).toBe(false);
  // Codex's own look at its store afterwards, on the result: its verdict on the store's checks
  // (here a warning: the store holds a look-alike `rollout-notes.jsonl` Codex cannot read).
  const check = wizard.getByTestId("agent-check");
  await expect(check).toHaveCount(1);
  await expect(check).toContainText(/^codex doctor 0\.\d+\.\d+: warning — /);
  await expect(check).toHaveAttribute("data-status", "warning");
  await expect(wizard.getByTestId("agent-checks")).toHaveAttribute("role", "alert");
});

test("a subagent Codex deletes with its spawner: named in the wizard, moved with it; a loss outside the selection is a red banner", async ({
  page,
  home,
  serve,
}) => {
  agentDirWith(home, { ...KEEP_NOTHING, activity: { graceMinutes: 1 } });
  const root = join(home, ".codex");
  // A thread, a subagent of it whose rollout lost its header (a session of its own to our scan), and
  // a thread of its own; Codex's database made by Codex, with the subagent's spawn edge it recorded.
  const b = new CodexStoreBuilder(root, 5);
  const spawner = b.thread({ cwd: "/home/dev/shop", turns: 2, names: ["checkout"] });
  const subagent = b.thread({ cwd: "/home/dev/shop", turns: 1, spawnedBy: spawner, headerless: true });
  const bystander = b.thread({ cwd: "/home/dev/docs", turns: 1, names: ["docs"] });
  b.finish();
  const codex = process.env.SESSION_RETENTION_CODEX!;
  spawnSync(codex, ["delete", "--force", "00000000-0000-7000-8000-000000000000"], {
    env: { ...process.env, CODEX_HOME: root },
    stdio: "ignore",
  });
  const edge = (parent: string, child: string) =>
    `insert or ignore into thread_spawn_edges values ('${parent}','${child}','open')`;
  spawnSync("sqlite3", [join(root, "state_5.sqlite"), edge(spawner.id, subagent.id)]);
  // The only stand-in: the real codex behind a wrapper that first records one more spawn edge — the
  // other thread as spawned by the spawner — as a running Codex could between our question and its
  // delete. Codex then deletes it too, and the look after the delete must say so.
  const wrapper = join(home, "codex-racing");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nsqlite3 "$CODEX_HOME/state_5.sqlite" "${edge(spawner.id, bystander.id)}"\nexec ${JSON.stringify(codex)} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  process.env.SESSION_RETENTION_CODEX = wrapper;
  const server = await serve().finally(() => (process.env.SESSION_RETENTION_CODEX = codex));

  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("filter-agent").selectOption("codex");
  const rowOf = (t: typeof spawner) => page.locator(`[data-testid="session-row"][data-id="codex:${t.id}"]`);
  // The spawner alone: its plan leaves it out, with why — no candidate, nothing counted.
  await rowOf(spawner).getByTestId("row-select").check();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  const left = wizard.locator(`[data-testid="left-out-session"][data-id="codex:${spawner.id}"]`);
  await expect(left.getByTestId("left-out-detail")).toContainText(
    `Codex's own delete of it would also delete its spawned thread ${subagent.id}`,
  );
  await expect(left.getByTestId("left-out-detail")).toContainText("which is not selected: select it too");
  await expect(wizard.getByTestId("wizard-candidate")).toHaveCount(0);
  await expect(wizard.getByTestId("wizard-next")).toBeDisabled();
  await wizard.getByTestId("wizard-cancel").click();

  await rowOf(subagent).getByTestId("row-select").check();
  await page.getByTestId("clean-selected").click();
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("ticked-total")).toContainText("2 of 2 ticked");
  const said = wizard.getByTestId("agent-also-deletes");
  await expect(said).toContainText(`Codex will also delete its spawned thread ${subagent.id}`);
  await expect(said).toContainText("goes with “checkout”, in its trash entry.");
  // Left unticked, the subagent keeps its spawner from being moved: the wizard says so at once.
  const subagentRow = wizard.locator(`[data-testid="wizard-candidate"][data-id="codex:${subagent.id}"]`);
  await subagentRow.getByTestId("candidate-tick").uncheck();
  await expect(wizard.getByTestId("agent-untick-refused")).toContainText("“checkout” will not be moved");
  // …and it is not counted: nothing ticked can move.
  await expect(wizard.getByTestId("ticked-total")).toContainText("1 of 2 ticked · 0 will move");
  await expect(wizard.getByTestId("wizard-next")).toBeDisabled();
  await page.screenshot({ path: "test-results/codex-agent-takes.png" });
  await subagentRow.getByTestId("candidate-tick").check();
  await expect(wizard.getByTestId("agent-untick-refused")).toHaveCount(0);
  await expect(wizard.getByTestId("ticked-total")).toContainText("2 of 2 ticked");
  await expect(wizard.getByTestId("ticked-total")).not.toContainText("will move");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("agent-also-deletes")).toBeVisible();
  await wizard.getByTestId("wizard-next").click();
  // Most of the store's bytes: the typed confirmation (shared/confirmation.ts).
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();

  await expect(wizard.getByTestId("result-moved")).toHaveText("2");
  for (const t of [spawner, subagent]) expect(existsSync(t.path), t.path).toBe(false);
  const lost = wizard.getByTestId("result-lost");
  await expect(lost).toContainText("1 session was lost outside the selection — not in the trash");
  await expect(lost).toContainText(bystander.path);
  await page.screenshot({ path: "test-results/codex-lost-banner.png" });
});
