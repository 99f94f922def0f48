// The dashboard follows its stores: with `watch`, a change an agent makes reaches the look (and the
// event stream) without a rescan, each look is a change of rows relative to the last, a full
// rescan finds nothing the watcher missed (and says so when it does), and where the kernel refuses
// more watches the server says why and rescans instead — tested at a real inotify limit, set in a
// user namespace of its own.
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  linkSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  decodeSessionRows,
  type LookEvent,
  LookEventSchema,
  SessionsQuerySchema,
  type WatchStatus,
  WatchStatusSchema,
} from "../../shared/api.js";
import { writeClaudeStore } from "../../test-support/claude-store.js";
import { messageLine, setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { BIN } from "../../test-support/serve-child.js";
import { createApp } from "./app.js";
import { createDashboardService, type DashboardEvent } from "./dashboard-service.js";
import { networkFileSystemOf } from "./store-watch.js";
import { piStores } from "../../test-support/pi-stores.js";

const HOUR = 3_600_000;
const services: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/** A store of three sessions, and a watching service that never rescans on its own within a test. */
function watchedStore(options: { reconcileMs?: number } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-live-")));
  const files = ["/work/app", "/work/app", "/work/lib"].map((cwd) =>
    writeSession(root, cwd, 2).getSessionFile()!,
  );
  const logged: string[] = [];
  const service = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: join(root, "..", `${root.split("/").at(-1)}-config.json`) },
    freshMs: HOUR,
    reconcileMs: options.reconcileMs ?? HOUR,
    watch: true,
    log: (line) => logged.push(line),
  });
  services.push(service);
  const events: DashboardEvent[] = [];
  service.subscribe((event) => events.push(event));
  const looks = () =>
    events.filter((e) => e.event === "look").map((e) => LookEventSchema.parse(JSON.parse(e.data)));
  const statuses = () =>
    events.filter((e) => e.event === "watch").map((e) => WatchStatusSchema.parse(JSON.parse(e.data)));
  return { root, files, service, logged, looks, statuses };
}

/**
 * `count` sessions last used in January 2025, in folders of their own, watched by a service whose
 * policy would clean them all but the `keepRecent` most recent, into a quarantine.
 */
function oldSessionsWatched(count: number, keepRecent: number) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-live-old-")));
  const files = Array.from({ length: count }, (_, i) => {
    const file = writeSession(root, `/work/${i}`, 2).getSessionFile()!;
    setModified(file, new Date(Date.UTC(2025, 0, 1 + i)));
    return file;
  });
  const config = join(mkdtempSync(join(tmpdir(), "sr-live-cfg-")), "session-retention.json");
  writeFileSync(
    config,
    JSON.stringify({
      retention: { maxAgeDays: 30, minKeepRecentCount: keepRecent, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    }),
  );
  const service = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: config },
    freshMs: HOUR,
    reconcileMs: HOUR,
    watch: true,
  });
  services.push(service);
  return { root, files, service };
}

describe("a watched look", () => {
  it("follows an append, a new session and a deletion without a rescan, each as a change of rows", async () => {
    const { root, files, service, looks, statuses } = watchedStore();
    const first = await service.getSummary();
    expect(first.summary.sessionCount).toBe(3);
    expect(statuses()[0]).toEqual({ mode: "watching" });

    appendFileSync(files[0]!, messageLine("one more question"));
    await expect.poll(() => looks().length, { timeout: 15_000 }).toBe(1);
    const [appended] = looks() as [LookEvent];
    expect(appended.from).toBe(first.version);
    expect(appended.version).toBe(first.version! + 1);
    expect(appended.sessions.removed).toEqual([]);
    expect(appended.sessions.upserted).toHaveLength(1);
    const [row] = decodeSessionRows({ ...appended.sessions, rows: appended.sessions.upserted, matching: 1 });
    expect(row!.path).toBe(files[0]);
    expect(row!.messageCount).toBe(5);
    expect(appended.summary.summary.totalBytes).toBeGreaterThan(first.summary.totalBytes);
    // Reads answer from the followed look at once: no rescan was needed (freshMs is an hour).
    const now = await service.getSummary();
    expect(now.version).toBe(appended.version);
    expect(now.summary.totalBytes).toBe(appended.summary.summary.totalBytes);
    const table = await service.sessions(SessionsQuerySchema.parse({}));
    expect(table.version).toBe(appended.version);
    expect(table.rows.find((r) => r[0] === row!.id)![8]).toBe(5);

    const added = writeSession(root, "/work/new", 1).getSessionFile()!;
    await expect.poll(() => looks().at(-1)!.summary.summary.sessionCount, { timeout: 15_000 }).toBe(4);
    const newRows = looks()
      .slice(1)
      .flatMap((l) => decodeSessionRows({ ...l.sessions, rows: l.sessions.upserted, matching: 0 }));
    expect(newRows.map((r) => r.path)).toContain(added);

    rmSync(files[1]!); // another program deletes a session
    await expect.poll(() => looks().at(-1)!.summary.summary.sessionCount, { timeout: 15_000 }).toBe(3);
    const gone = looks().at(-1)!;
    expect(gone.sessions.removed).toHaveLength(1);
    expect(gone.sessions.total).toBe(3);
    // Every change is relative to the one before: a page can follow them all in order.
    for (const [i, look] of looks().entries()) if (i > 0) expect(look.from).toBe(looks()[i - 1]!.version);
  });

  it("batches a burst of appends into a few looks", async () => {
    const { files, service, looks } = watchedStore();
    await service.getSummary();
    for (let i = 0; i < 200; i++) appendFileSync(files[i % 3]!, messageLine(`burst ${i}`));
    const onDisk = files.reduce((sum, file) => sum + statSync(file).size, 0);
    await expect.poll(() => looks().at(-1)?.summary.summary.totalBytes, { timeout: 15_000 }).toBe(onDisk);
    expect(looks().length).toBeLessThanOrEqual(4);
  });

  it("a full rescan finds nothing the watcher missed, and counts and says what it did miss", async () => {
    const { files, service, statuses, logged } = watchedStore({ reconcileMs: 300 });
    await service.getSummary();
    appendFileSync(files[0]!, messageLine("seen by the watcher"));
    await expect
      .poll(() => statuses().find((s) => s.reconciled)?.reconciled?.missed, { timeout: 15_000 })
      .toBe(0);
    expect(logged).toEqual([]);

    // A write through a hard link in a folder nobody watches: the store's folder hears nothing.
    const elsewhere = join(mkdtempSync(join(tmpdir(), "sr-live-link-")), "same-file.jsonl");
    linkSync(files[2]!, elsewhere);
    appendFileSync(elsewhere, messageLine("written behind the watcher's back"));
    await expect.poll(() => statuses().at(-1)?.reconciled?.missedTotal, { timeout: 15_000 }).toBe(1);
    expect(logged.join("\n")).toContain(`1 change(s) the watcher missed: ${files[2]}`);
    // And the look has it now.
    const rows = decodeSessionRows(await service.sessions(SessionsQuerySchema.parse({})));
    expect(rows.find((r) => r.path === files[2])!.messageCount).toBe(5);
  });
});

describe("a pin or a saved policy", () => {
  it("takes a look that walks no store while the watcher keeps them current; a rescan asked for walks them", async () => {
    // Old sessions the policy would clean: a pinned one is kept, and says so.
    const { files, service } = oldSessionsWatched(3, 0);
    const rowsNow = async () => decodeSessionRows(await service.sessions(SessionsQuerySchema.parse({})));
    const before = await rowsNow();
    // A write the watcher cannot see (through a hard link in a folder nobody watches): only a walk finds it.
    const elsewhere = join(mkdtempSync(join(tmpdir(), "sr-live-pin-")), "same-file.jsonl");
    linkSync(files[2]!, elsewhere);
    appendFileSync(elsewhere, messageLine("written behind the watcher's back"));

    const pinned = before.find((r) => r.path === files[0])!;
    await service.protect({ ids: [pinned.id], protect: true });
    const afterPin = await rowsNow();
    expect(afterPin.find((r) => r.id === pinned.id)!.kept).toBe("pinned");
    // Not walked: the unseen write is not in the look.
    expect(afterPin.find((r) => r.path === files[2])!.messageCount).toBe(4);

    // A policy that keeps the most recent one: its verdict moves, still without a walk.
    const saved = await service.savePolicy!({
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    });
    expect(saved.ok).toBe(true);
    const afterSave = await rowsNow();
    expect(afterSave.find((r) => r.path === files[2])!.kept).toBe("recent");
    expect(afterSave.find((r) => r.path === files[2])!.messageCount).toBe(4);

    // A rescan asked for right after a pin, before anything read the pin's look, walks all the same.
    await service.protect({ ids: [before.find((r) => r.path === files[1])!.id], protect: true });
    expect(service.startScan!().started).toBe(true);
    await expect
      .poll(async () => (await rowsNow()).find((r) => r.path === files[2])!.messageCount, { timeout: 15_000 })
      .toBe(5);
    expect((await rowsNow()).find((r) => r.id === pinned.id)!.kept).toBe("pinned");
  });
});

describe("other stores, and our own moves", () => {
  it("follows a Claude Code transcript as Claude writes it", async () => {
    const store = writeClaudeStore(realpathSync(mkdtempSync(join(tmpdir(), "sr-live-claude-"))));
    const service = createDashboardService({
      stores: [{ kind: "claude", root: store.root }],
      source: { kind: "pi" },
      config: { file: join(store.home, "none.json") },
      freshMs: HOUR,
      reconcileMs: HOUR,
      watch: true,
    });
    services.push(service);
    const events: DashboardEvent[] = [];
    service.subscribe((event) => events.push(event));
    const before = await service.getSummary();
    const session = store.sessions.find((s) => s.bundle.length === 0 && s.warnings.length === 0)!;
    appendFileSync(
      session.path,
      `${JSON.stringify({ type: "user", sessionId: session.uuid, timestamp: new Date().toISOString(), message: { role: "user", content: "and one more thing" } })}\n`,
    );
    await expect
      .poll(() => events.filter((e) => e.event === "look").length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    const look = LookEventSchema.parse(JSON.parse(events.filter((e) => e.event === "look").at(-1)!.data));
    const [row] = decodeSessionRows({ ...look.sessions, rows: look.sessions.upserted, matching: 0 }).filter(
      (r) => r.path === session.path,
    );
    expect(row!.messageCount).toBe(session.messageCount + 1);
    expect(look.summary.summary.totalBytes).toBe(
      before.summary.totalBytes + (statSync(session.path).size - session.sizeBytes),
    );
  });

  it("after our own delete and restore, the watched look equals a fresh scan", async () => {
    const { root, files, service } = oldSessionsWatched(4, 1);
    const plan = await service.plan();
    const result = await service.deleteSessions({
      items: plan.candidates.slice(0, 2).map((c) => ({ id: c.id, fingerprint: c.fingerprint! })),
      dryRun: false,
    });
    expect(result.moved).toHaveLength(2);
    appendFileSync(files[3]!, messageLine("written while we deleted"));
    const same = async () => {
      const rows = decodeSessionRows(await service.sessions(SessionsQuerySchema.parse({})));
      const fresh = await scanStores({ stores: piStores(root) });
      return (
        JSON.stringify(rows.map((r) => [r.path, r.sizeBytes, r.messageCount]).sort()) ===
        JSON.stringify(fresh.sessions.map((r) => [r.path, r.sizeBytes, r.messageCount]).sort())
      );
    };
    await expect.poll(same, { timeout: 15_000 }).toBe(true);
    const trash = await service.trash();
    await service.restore(trash.entries.filter((e) => e.state === "in-trash").map((e) => e.entryId));
    await expect.poll(same, { timeout: 15_000 }).toBe(true);
    expect((await service.getSummary()).summary.sessionCount).toBe(4);
  });
});

describe("deleting while the look is watched", () => {
  it("decides on its own fresh scan, never on the watched look, even when the watcher missed a change", async () => {
    const { files, service } = oldSessionsWatched(3, 0);
    const plan = await service.plan();
    const target = plan.candidates.find((c) => c.path === files[0])!;
    // Written behind the watcher's back: the watched look still holds the old fingerprint.
    const elsewhere = join(mkdtempSync(join(tmpdir(), "sr-live-link-")), "same-file.jsonl");
    linkSync(files[0]!, elsewhere);
    appendFileSync(elsewhere, messageLine("written after the preview"));
    setModified(elsewhere, new Date(Date.UTC(2025, 0, 1)));
    // Then a write the watcher does see, to another session: once the look has it, the look has
    // had every event that came before (the kernel queues them in order) — none for the first.
    const other = plan.candidates.find((c) => c.path === files[2])!;
    appendFileSync(files[2]!, messageLine("seen by the watcher"));
    setModified(files[2]!, new Date(Date.UTC(2025, 0, 3)));
    const fingerprintOf = async (path: string) =>
      (await service.plan()).candidates.find((c) => c.path === path)?.fingerprint;
    await expect.poll(() => fingerprintOf(files[2]!), { timeout: 15_000 }).not.toEqual(other.fingerprint);
    expect(await fingerprintOf(files[0]!)).toEqual(target.fingerprint);
    const result = await service.deleteSessions({
      items: [{ id: target.id, fingerprint: target.fingerprint! }],
      dryRun: false,
    });
    expect(result.moved).toEqual([]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ path: files[0], reason: "changed since preview" }),
    ]);
    expect(statSync(files[0]!).size).toBe(statSync(elsewhere).size);
  });
});

describe("the event stream", () => {
  it("GET /api/events sends the watch, then each look as it changes", async () => {
    const { files, service } = watchedStore();
    await service.getSummary();
    const app = createApp({ api: service, token: "tok", port: () => 4998 });
    const response = await app.request("http://127.0.0.1:4998/api/events", {
      headers: { Host: "127.0.0.1:4998", Authorization: "Bearer tok" },
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended: ${text}`);
        text += value;
      }
    };
    await until(/event: watch\ndata: (.*)\n\n/);
    expect(JSON.parse(/event: watch\ndata: (.*)\n\n/.exec(text)![1]!)).toEqual({ mode: "watching" });
    appendFileSync(files[1]!, messageLine("over the wire"));
    await until(/event: look\ndata: (.*)\n\n/);
    const look = LookEventSchema.parse(JSON.parse(/event: look\ndata: (.*)\n\n/.exec(text)![1]!));
    expect(look.sessions.upserted).toHaveLength(1);
    await reader.cancel();
  });

  it("holds a few dozen events at most for a reader that does not keep up, the newest last", async () => {
    let send: (event: DashboardEvent) => void = () => {};
    const api = {
      getSummary: async () => {
        throw new Error("not asked");
      },
      subscribe: (listener: (event: DashboardEvent) => void) => {
        send = listener;
        return () => {};
      },
    };
    const app = createApp({ api, token: "tok", port: () => 4998 });
    const response = await app.request("http://127.0.0.1:4998/api/events", {
      headers: { Host: "127.0.0.1:4998", Authorization: "Bearer tok" },
    });
    // A thousand looks before the stream has taken one: as for a reader that does not read.
    for (let i = 0; i < 1000; i++) send({ event: "look", data: JSON.stringify({ i }) });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes('"i":999')) text += (await reader.read()).value ?? "";
    await reader.cancel();
    const sent = text.match(/event: look/g)!.length;
    expect(sent).toBeLessThan(100);
  });

  it("without the token it is refused like every API route", async () => {
    const { service } = watchedStore();
    const app = createApp({ api: service, token: "tok", port: () => 4998 });
    const response = await app.request("http://127.0.0.1:4998/api/events", {
      headers: { Host: "127.0.0.1:4998" },
    });
    expect(response.status).toBe(401);
  });
});

describe("without watching", () => {
  it("a page that follows the look is kept current by rescans, and is told so", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-live-off-")));
    writeSession(root, "/work/a", 1);
    const service = createDashboardService({
      stores: piStores(root),
      source: { kind: "pi" },
      config: { file: join(root, "..", "none.json") },
      freshMs: 1000,
    });
    services.push(service);
    await service.getSummary();
    const events: DashboardEvent[] = [];
    service.subscribe((event) => events.push(event));
    expect(JSON.parse(events[0]!.data)).toEqual({
      mode: "rescanning",
      message: expect.stringContaining("rescans them every few seconds"),
    });
    writeSession(root, "/work/b", 1);
    await expect
      .poll(
        () =>
          events
            .filter((e) => e.event === "look")
            .map((e) => LookEventSchema.parse(JSON.parse(e.data)).summary.summary.sessionCount)
            .at(-1),
        { timeout: 15_000 },
      )
      .toBe(2);
  });

  it("knows the network file systems whose changes raise no events here", () => {
    expect(networkFileSystemOf(tmpdir())).toBeUndefined(); // this machine's own disk
    const on = (type: number) => networkFileSystemOf("/mnt/x", () => ({ type }));
    expect(on(0x6969)).toBe("NFS");
    expect(on(0xff534d42)).toBe("CIFS");
    expect(on(0x01021997)).toBe("9p");
    expect(on(0xef53)).toBeUndefined(); // ext4
    expect(networkFileSystemOf("/no/such/folder")).toBeUndefined();
  });
});

/** Whether this machine lets a process make a user namespace of its own (CI's does, as root). */
const userNamespaces = spawnSync("unshare", ["-Ur", "true"]).status === 0;

describe("at the inotify watch limit", () => {
  it.runIf(userNamespaces)(
    "serve says why it cannot watch, and the page is kept current by rescans instead",
    async () => {
      const home = mkdtempSync(join(tmpdir(), "sr-live-limit-"));
      const root = join(home, "store");
      for (const cwd of ["/a", "/b", "/c"]) writeSession(root, cwd, 1);
      writeFileSync(join(home, "limit.sh"), 'echo 2 > /proc/sys/user/max_inotify_watches && exec "$@"\n');
      // A user namespace of its own, whose limit is 2 watches: the store needs 4 (root and 3 folders).
      const child = spawn(
        "unshare",
        [
          "-Ur",
          "sh",
          join(home, "limit.sh"),
          process.execPath,
          BIN,
          "serve",
          "--port",
          "0",
          "--no-open",
          "--root",
          root,
        ],
        {
          env: {
            ...process.env,
            HOME: home,
            PI_CODING_AGENT_DIR: join(home, "agent"),
            XDG_DATA_HOME: join(home, "share"),
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      try {
        await expect.poll(() => /#token=\S+/.test(output), { timeout: 20_000 }).toBe(true);
        expect(output).toContain("limit of inotify watches (2) is reached");
        expect(output).toContain("sysctl fs.inotify.max_user_watches");
        const [base, token] = /(http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(output)!.slice(1) as [
          string,
          string,
        ];
        const response = await fetch(`${base}/api/events`, { headers: { Authorization: `Bearer ${token}` } });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = "";
        while (!/event: watch\ndata: .*\n\n/.test(text)) text += (await reader.read()).value ?? "";
        const status: WatchStatus = JSON.parse(/event: watch\ndata: (.*)\n\n/.exec(text)![1]!);
        expect(status.mode).toBe("rescanning");
        expect(status.message).toContain("rescans the stores every few seconds");
        // Still live, by rescans while a page listens (every 5 s).
        writeSession(root, "/d", 1);
        while (!/"sessionCount":4/.test(text)) {
          const { value, done } = await reader.read();
          if (done) throw new Error("stream ended");
          text += value;
        }
        await reader.cancel();
      } finally {
        child.kill();
      }
    },
    40_000,
  );
});
