// Gemini CLI's resume twin (google-gemini/gemini-cli#27368), against stores written the way Gemini
// 0.61.0 writes them (test-support/gemini-store.ts): `gemini --resume` of a chat begun in an earlier
// minute leaves an empty copy named with the same 8 characters, and Gemini's next start deletes the
// copy and the chat with it. The copy is a part of the chat's session (our count is Gemini's), the
// forecast names it and the chat it dooms, and removing it alone — one action, in the CLI and the
// dashboard's API — goes through the trash like any session and saves the chat.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PlanSchema } from "../../../shared/plan.js";
import { lenientConfig } from "../../../test-support/config-file.js";
import { DAY, GeminiStoreBuilder } from "../../../test-support/gemini-store.js";
import { insideAny, snapshotTree, treeChanges, without } from "../../../test-support/tree-snapshot.js";
import { runCli } from "../../cli/main.js";
import { restore, softDelete } from "../../delete/deletion-engine.js";
import { createDashboardService } from "../../http/dashboard-service.js";
import { scanStores } from "../../scan/scanner.js";
import { geminiSweep } from "./gemini-sweep.js";

const HOUR = 3_600_000;
const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-gemini-twin-")));
const scan = (root: string) => scanStores({ stores: [{ kind: "gemini", root }] });
const out = () => {
  const lines: string[] = [];
  return { lines, io: { stdout: (t: string) => lines.push(t), stderr: (t: string) => lines.push(t) } };
};

/**
 * One project: a chat begun `ageDays` ago and resumed a day later (its twin written then), and a
 * chat of yesterday. The clock is now: the CLI and the dashboard judge by the real time.
 */
function twinStore(ageDays = 3, projectPath?: string) {
  const b = new GeminiStoreBuilder(newHome(), Date.now());
  const shop = b.project(projectPath ?? join(b.home, "code", "shop"));
  const chat = b.chat(shop, ageDays).conversationOf(2).summarize("Fix the cart totals");
  chat.resume(DAY + 2 * HOUR);
  const resumedAt = chat.lastMs;
  chat.conversationOf(1);
  const real = b.save(chat, shop);
  const twin = b.resumeTwin(real, resumedAt);
  b.save(b.chat(shop, 1).conversationOf(1), shop);
  const facts = b.finish();
  const expected = facts.sessions.find((s) => s.path === real.path)!;
  return { ...facts, project: shop.path, twin, expected, sessionId: chat.sessionId };
}

describe("Gemini CLI's resume twin", () => {
  it("is a part of its chat's session: our count is Gemini's, the size is every byte Gemini keeps for it", async () => {
    const store = twinStore();
    const { sessions } = await scan(store.root);
    // Gemini's own list: the chats it would offer to resume (the generator's account, not ours).
    expect(sessions).toHaveLength(store.sweep.filter((s) => s.valid).length);
    expect(sessions).toHaveLength(2);
    const real = sessions.find((s) => s.path === store.expected.path)!;
    expect(real.id).toBe(`gemini:${store.sessionId}`);
    expect(real.bundle).toEqual([store.twin]);
    expect(real.sizeBytes).toBe(statSync(real.path).size + statSync(store.twin).size);
    expect(real.sizeBytes).toBe(store.expected.sizeBytes);
    const minute = /^session-(.+)-[0-9a-f]{8}\.jsonl$/.exec(store.twin.split("/").at(-1)!)![1];
    expect(real.detachable).toEqual([
      {
        id: `gemini-twin:${store.sessionId}:${minute}`,
        path: store.twin,
        sizeBytes: statSync(store.twin).size,
        fingerprint: expect.objectContaining({ size: statSync(store.twin).size }),
        what: "an empty copy left by a resume",
      },
    ]);
    expect(real.warnings.map((w) => w.code)).toEqual(store.expected.warnings);
    expect(real.warnings[0]!.message).toContain(
      `session-retention clean --ids gemini-twin:${store.sessionId}:`,
    );
  });

  it("the forecast names the copy and the chat it dooms, once; plan says the one command that saves it", async () => {
    const store = twinStore();
    const { sessions } = await scan(store.root);
    const real = sessions.find((s) => s.path === store.expected.path)!;
    const sweep = geminiSweep(store.root, sessions, new Date())!;
    expect(sweep.ids).toEqual([real.id]);
    expect(sweep.bytes).toBe(real.sizeBytes);
    expect(sweep.message).toContain("Gemini CLI will permanently delete 1 session");
    expect(sweep.message).toContain(
      "One of them goes only because of an empty copy a resume left beside it: remove the copy, and Gemini CLI keeps the chat.",
    );
    const id = real.detachable![0]!.id;
    expect(sweep.rescues).toEqual([
      {
        id,
        path: store.twin,
        sizeBytes: statSync(store.twin).size,
        fingerprint: real.detachable![0]!.fingerprint,
        session: real.id,
        title: "Fix the cart totals",
        message: "an empty copy left by a resume; remove it to keep “Fix the cart totals”",
      },
    ]);

    lenientConfig();
    const o = out();
    expect(await runCli(["plan", "--store", `gemini:${store.root}`], o.io)).toBe(0);
    expect(o.lines.join("\n")).toContain(
      `: an empty copy left by a resume; remove it to keep “Fix the cart totals” — session-retention clean --ids ${id}`,
    );
  });

  it("names no copy where the chat goes for its own age: removing the copy would not keep it", async () => {
    const store = twinStore(40);
    const { sessions } = await scan(store.root);
    const sweep = geminiSweep(store.root, sessions, new Date())!;
    expect(sweep.ids).toEqual([`gemini:${store.sessionId}`]);
    expect(sweep.rescues).toBeUndefined();
    expect(sweep.message).not.toContain("empty copy");
  });

  it("clean --ids of the copy moves it alone, through the trash; Gemini's forecast keeps the chat; a restore puts it back", async () => {
    const store = twinStore();
    const { sessions } = await scan(store.root);
    const id = sessions.find((s) => s.path === store.expected.path)!.detachable![0]!.id;
    const chat = readFileSync(store.expected.path);
    const twinBytes = statSync(store.twin).size;
    const moved = insideAny([store.twin]);
    const before = snapshotTree([store.home]);
    lenientConfig();
    const o = out();
    expect(
      await runCli(["clean", "--yes", "--json", "--ids", id, "--store", `gemini:${store.root}`], o.io),
    ).toBe(0);
    const { result } = JSON.parse(o.lines.at(-1)!) as {
      result: { moved: Array<{ id: string; path: string; bytes: number }>; operationId: string };
    };
    expect(result.moved).toEqual([expect.objectContaining({ id, path: store.twin, bytes: twinBytes })]);
    expect(existsSync(store.twin)).toBe(false);
    // Nothing else of Gemini's folder changed: the chat, its project's files, the other chat.
    expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);
    expect(readFileSync(store.expected.path).equals(chat)).toBe(true);

    // What Gemini's next start deletes now: nothing (both chats are recent and whole).
    const after = await scan(store.root);
    expect(after.sessions.map((s) => s.sizeBytes).sort()).toEqual(
      sessions.map((s) => (s.path === store.expected.path ? chat.length : s.sizeBytes)).sort(),
    );
    expect(geminiSweep(store.root, after.sessions, new Date())).toBeUndefined();
    const plan = out();
    await runCli(["plan", "--json", "--store", `gemini:${store.root}`], plan.io);
    expect(PlanSchema.parse(JSON.parse(plan.lines.at(-1)!)).externalSweeps ?? []).toEqual([]);

    const back = await restore([result.operationId], { actor: "cli" });
    expect(back.skipped).toEqual([]);
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
  });

  it("the dashboard's delete of the copy (the forecast's rescue, by id and fingerprint) moves it alone", async () => {
    const store = twinStore();
    lenientConfig();
    const api = createDashboardService({
      stores: [{ kind: "gemini", root: store.root }],
      source: { kind: "pi" },
      config: {},
    });
    const summary = await api.getSummary();
    expect(summary.agents.map((a) => [a.kind, a.sessionCount])).toEqual([["gemini", 2]]);
    const [rescue] = summary.externalSweeps![0]!.rescues!;
    const moved = insideAny([store.twin]);
    const before = snapshotTree([store.home]);
    const result = await api.deleteSessions!({
      items: [{ id: rescue!.id, fingerprint: rescue!.fingerprint }],
      dryRun: false,
    });
    expect(result.skipped).toEqual([]);
    expect(result.moved.map((m) => m.path)).toEqual([store.twin]);
    expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);
    expect((await api.getSummary()).externalSweeps ?? []).toEqual([]);
  });

  it("a copy whose chat changed since the forecast is skipped, and the chat is never taken", async () => {
    const store = twinStore();
    const { sessions } = await scan(store.root);
    const part = sessions.find((s) => s.path === store.expected.path)!.detachable![0]!;
    lenientConfig();
    const wrong = { ...part.fingerprint, size: part.fingerprint.size + 1 };
    const result = await softDelete(
      {
        items: [{ id: part.id, fingerprint: wrong }],
        stores: [{ kind: "gemini", root: store.root }],
        via: "selection",
      },
      { actor: "cli" },
    );
    expect(result.moved).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(["changed since preview"]);
    expect(existsSync(store.twin) && existsSync(store.expected.path)).toBe(true);
  });

  it("is not removed while a running Gemini uses its chat (it may still write the copy); it goes once Gemini stopped", async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "sr-project-")));
    const store = twinStore(3, project);
    // A process /proc shows as Gemini CLI, working in the project; the chat written since it started.
    const bin = realpathSync(mkdtempSync(join(tmpdir(), "sr-bin-")));
    writeFileSync(join(bin, "gemini"), "setInterval(() => {}, 1000);\n");
    const gemini = spawn(process.execPath, [join(bin, "gemini")], { cwd: project, stdio: "ignore" });
    try {
      const deadline = Date.now() + 5_000;
      while (!readFileSync(`/proc/${gemini.pid}/cmdline`, "utf8").includes("gemini") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 20)); // a write after its start, to the millisecond
      const { mtime } = statSync(store.expected.path);
      utimesSync(store.expected.path, new Date(), new Date());
      lenientConfig("quarantine", { activity: { graceMinutes: 1 } });
      const { sessions } = await scan(store.root);
      const part = sessions.find((s) => s.path === store.expected.path)!.detachable![0]!;
      const request = {
        items: [{ id: part.id, fingerprint: part.fingerprint }],
        stores: [{ kind: "gemini" as const, root: store.root }],
        via: "selection" as const,
      };
      const refused = await softDelete(request, { actor: "cli" });
      expect(refused.moved).toEqual([]);
      expect(refused.skipped[0]!.reason).toMatch(/^active: its session is in use \(.*Gemini CLI process/);
      expect(existsSync(store.twin)).toBe(true);

      gemini.kill("SIGKILL");
      await new Promise((resolve) => gemini.once("exit", resolve));
      utimesSync(store.expected.path, mtime, mtime);
      const moved = await softDelete(request, { actor: "cli" });
      expect(moved.moved.map((m) => m.path)).toEqual([store.twin]);
    } finally {
      gemini.kill("SIGKILL");
    }
  });
});
