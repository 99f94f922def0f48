// The pi extension (docs/extension.md): `/session-retention` commands, the quota in pi's status line,
// the active-session marker, opt-in hard-block of input and opt-in auto-clean.
//
// pi loads this on every start, so what runs here stays small: the marker is a tiny file write,
// the look at the stores runs on a worker thread (off-thread.ts, tasks.ts), and the commands'
// modules load when a command is first used. Nothing heavy (zod, the scanner, the policy engine) is loaded on
// pi's own thread until the user asks for something.
import { resolve } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { removeActiveMarker, writeActiveMarker } from "../server/state/active-marker.js";
import { statePaths } from "../server/state/state-dir.js";
import type { Look } from "./look.js";
import { completions } from "./subcommands.js";
import { offThread } from "./off-thread.js";
import { tell } from "./tell.js";
import { blockMessage, blocksInput, COMMAND, levelNotice, statusText } from "./words.js";

/** The event the extension emits on `pi.events` after every look (other extensions, and tests). */
export const LOOKED_EVENT = "session-retention:looked";
const STATUS_KEY = "session-retention";

/** During a session, the store grows with every prompt: look again after one, at most this often. */
export const RELOOK_MS = 5 * 60_000;

/**
 * The latest look, kept for the whole pi process: pi builds a new instance of the extension for
 * every session (`/new`, `/resume`, `/fork`), and the input guard must not lift while the new
 * instance's first look is under way.
 */
const processWide = ((globalThis as Record<symbol, unknown>)[Symbol.for("session-retention")] ??= {}) as {
  latest?: Look;
};

export default function sessionRetention(pi: ExtensionAPI) {
  const markers = statePaths().activeMarkers;
  const mark = (sessionFile: string) =>
    writeActiveMarker(markers, {
      pid: process.pid,
      sessionFile: resolve(sessionFile),
      startedAt: new Date().toISOString(),
    });
  /** False once this session's runtime is torn down: its ctx must not be used any more. */
  let live = true;

  const show = (ctx: ExtensionContext, look: Look) => {
    // Looks run concurrently (a command during the start-up look): an older one never wins.
    const { latest } = processWide;
    if (latest && look.lookedAt < latest.lookedAt) return;
    processWide.latest = look;
    if (!live) return;
    if (ctx.hasUI) ctx.ui.setStatus(STATUS_KEY, statusText(look));
    pi.events.emit(LOOKED_EVENT, look);
  };

  /** A fresh look, shown; on a session start, with auto-clean and the notice at warn/critical. */
  let lookStarted = 0;
  const refresh = async (ctx: ExtensionContext, options: { start: boolean }) => {
    lookStarted = Date.now();
    let reply;
    try {
      // Auto-clean only where someone is told what moved (and pi does not exit under it).
      reply = await offThread("look", { autoClean: options.start && ctx.hasUI });
    } catch (error) {
      if (live)
        tell(
          ctx,
          `session-retention: could not look at the session stores: ${(error as Error).message}`,
          "warning",
        );
      return;
    }
    if (!live) return;
    show(ctx, reply.look);
    const notice = options.start && ctx.hasUI ? levelNotice(reply.look) : undefined;
    if (notice) tell(ctx, notice, reply.look.quota.level === "critical" ? "error" : "warning");
    if (reply.autoClean?.message)
      tell(ctx, reply.autoClean.message, reply.autoClean.result?.refused ? "warning" : "info");
  };

  pi.on("session_start", (event, ctx) => {
    const sessionFile = ctx.sessionManager.getSessionFile();
    // First, so that no clean — auto-clean included — can take the session pi is about to write.
    if (sessionFile) mark(sessionFile);
    else removeActiveMarker(markers, process.pid); // an in-memory session: nothing on disk to keep
    // Not awaited: pi's start-up goes on while the worker looks. A reload is not a new start.
    void refresh(ctx, { start: event.reason !== "reload" });
  });

  pi.on("agent_end", (_event, ctx) => {
    // Keeps the status line — and the input guard — true during a long session.
    if (Date.now() - lookStarted >= RELOOK_MS) void refresh(ctx, { start: false });
  });

  pi.on("session_shutdown", (event) => {
    live = false;
    // pi loads the next session before the new instance's session_start: the marker moves to it
    // now, and a reload keeps it, so no moment leaves the session in use unmarked.
    if (event.reason === "reload") return;
    if (event.reason !== "quit" && event.targetSessionFile) mark(event.targetSessionFile);
    else removeActiveMarker(markers, process.pid);
  });

  pi.on("input", (event, ctx) => {
    // Messages other extensions send on the user's behalf are theirs to judge; and without a UI
    // (print and JSON modes) a script would fail or not depending on whether the first look
    // beat its prompt — so only a person at pi's prompt is ever blocked.
    const { latest } = processWide;
    if (event.source === "extension" || !ctx.hasUI || !blocksInput(latest))
      return { action: "continue" as const };
    tell(ctx, blockMessage(latest!), "error");
    return { action: "handled" as const };
  });

  pi.registerCommand(COMMAND, {
    description: "Session disk use, quota and safe cleanup: scan, clean, policy, protect, dashboard",
    getArgumentCompletions: completions,
    handler: async (args, ctx) => {
      const { runCommand } = await import("./commands.js");
      await runCommand(args, ctx, { shown: (look) => show(ctx, look), live: () => live });
    },
  });
}
