// Which Gemini CLI sessions are live: Gemini keeps no registry and closes its chat between writes,
// so a running `gemini` is found in /proc — its command line and its working folder — and the chats
// of that project's folder written since it started are in use. Real processes, spawned here.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeConfigFile } from "../../../test-support/config-file.js";
import { GeminiStoreBuilder } from "../../../test-support/gemini-store.js";
import { softDelete } from "../../delete/deletion-engine.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { processStart } from "../../fs/process-start.js";
import { isGeminiCommand } from "./gemini-live.js";

const newDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** A process that runs `node <dir>/<name>` in `cwd` until killed, once /proc shows it. */
async function start(name: string, cwd: string) {
  const bin = newDir("sr-bin-");
  const script = join(bin, name);
  writeFileSync(script, "setInterval(() => {}, 1000);\n");
  const child = spawn(process.execPath, [script], { cwd, stdio: "ignore" });
  running.push(child);
  for (let i = 0; i < 100 && !readFileSync(`/proc/${child.pid}/cmdline`, "utf8").includes(name); i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return child;
}

/**
 * A Gemini store with a project at a real folder: a month-old chat, and (as `write()` makes it
 * after a process started) a chat written now, in the project's slug folder and in its sha256
 * folder (a Gemini from before slugs).
 */
function storeWithProject() {
  const home = newDir("sr-gemini-live-");
  const project = newDir("sr-project-");
  const b = new GeminiStoreBuilder(home, Date.now());
  const slug = b.project(project);
  const hash = b.project(project, "hash");
  const old = b.save(b.chat(slug, 30).conversationOf(1), slug).path;
  b.finish();
  const write = () => {
    const paths = [slug, hash].map((folder) => b.save(b.chat(folder, 0).conversationOf(1), folder).path);
    const justNow = new Date(Date.now() - 500);
    for (const path of paths) utimesSync(path, justNow, justNow);
    return paths;
  };
  return { root: b.root, project, old, write };
}

const liveOf = async (root: string) => {
  const inputs = await gatherPlanInputs({ flagStores: [{ kind: "gemini", root }], cache: false });
  return new Map(
    inputs.report.sessions.flatMap((s) => {
      const how = inputs.activeIds.get(s.id);
      return how === undefined ? [] : [[s.path, how] as const];
    }),
  );
};

describe("isGeminiCommand", () => {
  it("knows Gemini CLI's script however it is started, and nothing else by its name alone", () => {
    const yes = [
      ["node", "/usr/local/bin/gemini"],
      [
        "/usr/bin/node",
        "--max-old-space-size=8192",
        "/usr/lib/node_modules/@google/gemini-cli/dist/index.js",
        "-r",
      ],
      ["node", "/home/me/.npm/_npx/1a2b/node_modules/.bin/gemini", "--resume", "latest"],
      ["/opt/homebrew/bin/gemini"],
    ];
    const no = [
      ["node", "/home/me/gemini-notes/app.js"],
      ["vim", "gemini.md"],
      ["node", "/x/geminiish"],
      ["bash"],
    ];
    expect(yes.map(isGeminiCommand)).toEqual(yes.map(() => true));
    expect(no.map(isGeminiCommand)).toEqual(no.map(() => false));
  });
});

describe.runIf(existsSync("/proc/self/stat"))("Gemini CLI's live sessions", () => {
  it("a chat of the project a running gemini works in, written since it started, is live; an older one is not", async () => {
    const { root, project, old, write } = storeWithProject();
    const gemini = await start("gemini", project);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // written after the start, to the second
    const [slugChat, hashChat] = write();
    const live = await liveOf(root);
    const how = `written since Gemini CLI process ${gemini.pid} started in ${project}`;
    expect(live).toEqual(
      new Map([
        [slugChat, how],
        [hashChat, how],
      ]),
    );
    expect(live.has(old)).toBe(false);
  });

  it("another program in the same folder makes nothing live, nor a gemini that has stopped", async () => {
    const { root, project, write } = storeWithProject();
    await start("gemini-notes.js", project);
    const gemini = await start("gemini", project);
    write();
    gemini.kill("SIGKILL");
    await new Promise((resolve) => gemini.once("exit", resolve));
    expect(await liveOf(root)).toEqual(new Map());
  });

  it("the engine refuses a live chat even past the grace window, and moves it once gemini has stopped", async () => {
    const { root, project, write } = storeWithProject();
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      activity: { graceMinutes: 0 },
      deletion: { target: "quarantine" },
    });
    const gemini = await start("gemini", project);
    expect(processStart(gemini.pid!)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const chat = write()[0]!;
    const inputs = await gatherPlanInputs({ flagStores: [{ kind: "gemini", root }], cache: false });
    const record = inputs.report.sessions.find((s) => s.path === chat)!;
    const request = {
      items: [{ id: record.id, fingerprint: record.fingerprint }],
      stores: [{ kind: "gemini" as const, root }],
      via: "selection" as const,
    };
    const refused = await softDelete(request, { actor: "cli" });
    expect(refused.skipped.map((s) => s.reason)).toEqual([
      `active: written since Gemini CLI process ${gemini.pid} started in ${project}`,
    ]);
    expect(existsSync(chat)).toBe(true);

    gemini.kill("SIGKILL");
    await new Promise((resolve) => gemini.once("exit", resolve));
    const moved = await softDelete(request, { actor: "cli" });
    expect(moved.moved.map((m) => m.path)).toEqual([chat]);
  });
});
