// `/session-retention [scan|clean|policy|protect|unprotect|undo|dashboard]`. Loaded on
// first use, so pi's start-up never pays for it; whatever scans a store runs off pi's thread
// (tasks.ts), so pi's terminal stays responsive on a large store. Every answer goes through `tell`:
// pi's UI when there is one, stderr in print and JSON modes — where nothing ever prompts.
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { formatBytes } from "../shared/format.js";
import { visible } from "../shared/visible-text.js";
import { runningInstance } from "../server/http/instance.js";
import { applyOverride, loadConfig, saveConfig } from "../server/config/config-file.js";
import { readRawConfig } from "../server/config/configured-root.js";
import { ensurePrivateDir } from "../server/fs/private-files.js";
import { statePaths } from "../server/state/state-dir.js";
import { cleanWizard } from "./clean-wizard.js";
import type { Look } from "./look.js";
import { offThread } from "./off-thread.js";
import { tell, visibleUi } from "./tell.js";
import { SUBCOMMANDS } from "./subcommands.js";
import { COMMAND, overviewText } from "./words.js";

export interface CommandHooks {
  /** A new look was taken: the extension shows it (status line, events, input guard). */
  shown: (look: Look) => void;
  /** False once the session was replaced (`/new` while a command waited): its ctx is dead then. */
  live: () => boolean;
}

/** Tells the user, unless the session the command ran in is gone. */
const say = (
  ctx: ExtensionCommandContext,
  hooks: CommandHooks,
  ...words: [string, ("info" | "warning" | "error")?]
) => {
  if (hooks.live()) tell(ctx, ...words);
};

const USAGE = `Usage: /${COMMAND} [${SUBCOMMANDS.join("|")}]
  (none)              overview: count, size, quota, forecast, top candidates, dashboard
  scan                look at the stores again
  clean               choose sessions and move them to the trash (typed DELETE)
  policy [KEY VALUE]  show the settings; change one (validated, saved, audited)
  protect [ID|PATH]   pin a session (no argument: this one); unprotect removes the pin
  undo [OPERATION]    restore what the last clean (or that operation) moved
  dashboard           start or open the local dashboard`;

export async function runCommand(
  args: string,
  ctx: ExtensionCommandContext,
  hooks: CommandHooks,
): Promise<void> {
  const [sub = "", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  try {
    switch (sub) {
      case "":
        return await overview(ctx, hooks);
      case "scan":
        return await scan(ctx, hooks);
      case "clean":
        return await clean(ctx, hooks);
      case "policy":
        return await policy(rest, ctx, hooks);
      case "protect":
      case "unprotect":
        return await protect(sub, rest.join(" "), ctx, hooks);
      case "undo":
        return await undo(rest[0], ctx, hooks);
      case "dashboard":
        return await dashboard(ctx, hooks);
      default:
        return say(ctx, hooks, `Unknown: "${visible(sub)}".\n${USAGE}`, "warning");
    }
  } catch (error) {
    // A command never takes pi down: say what went wrong and leave everything as it was.
    say(ctx, hooks, `session-retention ${visible(sub)}: ${(error as Error).message}`, "error");
  }
}

async function freshLook(hooks: CommandHooks): Promise<Look> {
  const { look } = await offThread("look", { autoClean: false });
  hooks.shown(look);
  return look;
}

async function overview(ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const look = await freshLook(hooks);
  say(ctx, hooks, overviewText(look, runningInstance(statePaths().dir)?.url));
}

async function scan(ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const started = performance.now();
  const look = await freshLook(hooks);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say(
    ctx,
    hooks,
    `Scanned ${look.sessionCount.toLocaleString("en-US")} sessions, ${formatBytes(look.totalBytes)}, in ${seconds} s — quota ${look.quota.level}.` +
      look.notes.map((n) => `\nnote: ${n}`).join(""),
  );
}

async function clean(ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const prepared = await offThread("plan", undefined);
  if (!prepared.ok)
    return say(
      ctx,
      hooks,
      `Read-only: the config ${visible(prepared.configPath)} is invalid. See /${COMMAND} policy.`,
      "warning",
    );
  const { plan, config, stores } = prepared;
  if (!ctx.hasUI)
    // No one to confirm: show the plan and how to act on it, move nothing.
    return say(
      ctx,
      hooks,
      `The policy suggests ${plan.candidates.length} session${plan.candidates.length === 1 ? "" : "s"} (${formatBytes(plan.bytesToFree)}). Nothing was moved: cleaning asks for a typed DELETE, which needs pi's interactive UI (or \`session-retention clean\` in a terminal).`,
    );
  const outcome = await cleanWizard(visibleUi(ctx.ui), plan, config, (items, via) =>
    offThread("delete", { items, ...stores, via }),
  );
  if (outcome.kind === "cancelled") return say(ctx, hooks, "Cancelled: nothing was moved.");
  say(
    ctx,
    hooks,
    outcome.message,
    outcome.kind === "done" && (outcome.result.skipped.length > 0 || (outcome.result.lost?.length ?? 0) > 0)
      ? "warning"
      : "info",
  );
  if (outcome.kind === "done") await freshLook(hooks);
}

/** A config's problems, one line each: keys and values quoted from the file may hold any character. */
const problemLines = (problems: ReadonlyArray<{ path: string; message: string }>) =>
  problems.map((p) => `  ${visible(p.path)}: ${visible(p.message)}`).join("\n");

/** The effective config as `key = value` lines, one per setting (arrays as JSON). */
export function settings(config: object, prefix = ""): Array<[string, unknown]> {
  return Object.entries(config).flatMap(([key, value]): Array<[string, unknown]> =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? settings(value, `${prefix}${key}.`)
      : key === "$schema"
        ? []
        : [[`${prefix}${key}`, value]],
  );
}

async function policy(rest: string[], ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const status = loadConfig();
  // `policy KEY VALUE` and `policy KEY=VALUE` both set one value.
  const assignment =
    rest.length === 0 ? undefined : rest.length === 1 ? rest[0]! : `${rest[0]}=${rest.slice(1).join(" ")}`;
  if (assignment?.includes("=")) return setting(assignment, ctx, hooks);
  if (!status.ok)
    return say(
      ctx,
      hooks,
      `Invalid config ${visible(status.path)} (read-only until fixed):\n${problemLines(status.problems)}\nSet a value with /${COMMAND} policy KEY VALUE.`,
      "warning",
    );
  const lines = settings(status.config)
    .filter(([key]) => !assignment || key === assignment)
    .map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  if (assignment && lines.length === 0)
    return say(ctx, hooks, `No setting "${visible(assignment)}".`, "warning");
  const path = visible(status.path);
  const source = status.source === "defaults" ? `${path} (absent: the defaults apply)` : path;
  // Each line is one value: a string value with a line feed in it must not read as two settings.
  if (!ctx.hasUI) return say(ctx, hooks, [`Policy ${source}:`, ...lines.map(visible)].join("\n"));
  const ui = visibleUi(ctx.ui);
  const close = "Close";
  const picked = await ui.select(`Policy ${source} — pick a setting to change:`, [...lines, close]);
  if (picked === undefined || picked === close) return;
  const key = picked.slice(0, picked.indexOf(" = "));
  const current = picked.slice(picked.indexOf(" = ") + 3);
  const value = await ui.input(
    `New value for ${visible(key)}, now ${visible(current)} (JSON or plain text; empty keeps it):`,
    current,
  );
  if (value === undefined || value.trim() === "")
    return say(ctx, hooks, `Unchanged: ${visible(key)} = ${visible(current)}`);
  await setting(`${key}=${value}`, ctx, hooks);
}

/** Sets one `key=value` in the file's own JSON; saved only when the whole config is then valid. */
async function setting(assignment: string, ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const path = loadConfig().path;
  const read = readRawConfig(path, false);
  if (read.kind === "unusable")
    return say(
      ctx,
      hooks,
      `Cannot change ${visible(path)}: it ${visible(read.message)}. Fix the file by hand first.`,
      "error",
    );
  const raw = applyOverride(read.kind === "parsed" ? read.raw : {}, assignment);
  const saved = saveConfig(path, raw, "extension");
  if (!saved.ok)
    return say(ctx, hooks, `Not saved — ${visible(assignment)}:\n${problemLines(saved.problems)}`, "error");
  say(ctx, hooks, `Saved ${visible(assignment)} in ${visible(path)}.`);
  await freshLook(hooks);
}

async function protect(
  action: "protect" | "unprotect",
  ref: string,
  ctx: ExtensionCommandContext,
  hooks: CommandHooks,
) {
  const thisSession = ctx.sessionManager.getSessionFile();
  const target = ref || thisSession;
  if (!target)
    return say(
      ctx,
      hooks,
      `This session is not saved to a file; name one: /${COMMAND} ${action} ID|PATH`,
      "warning",
    );
  let done;
  try {
    done = await offThread("protect", { ref: target, protect: action === "protect" });
  } catch (error) {
    // pi writes a session's file only once the first reply is in.
    if (!ref)
      return say(
        ctx,
        hooks,
        `This session has no file yet (pi writes it after the first reply); ${action} it then.`,
        "warning",
      );
    throw error;
  }
  say(
    ctx,
    hooks,
    done.changed
      ? `${action === "protect" ? "Protected" : "Unprotected"} ${visible(done.path)}`
      : `Already ${action}ed: ${visible(done.path)}`,
  );
}

async function undo(operation: string | undefined, ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const { operation: op, result } = await offThread("undo", operation ? { operation } : {});
  if (!result)
    return say(
      ctx,
      hooks,
      op ? `Nothing of operation ${visible(op)} is in the trash.` : "Nothing is in the trash.",
      "warning",
    );
  const bytes = result.done.reduce((t, d) => t + d.bytes, 0);
  say(
    ctx,
    hooks,
    [
      `Restored ${result.done.length} session${result.done.length === 1 ? "" : "s"} (${formatBytes(bytes)}) of operation ${visible(op!)}.`,
      ...result.skipped.map((s) => `not restored ${visible(s.ref)}: ${visible(s.reason)}`),
    ].join("\n"),
    result.skipped.length > 0 ? "warning" : "info",
  );
  await freshLook(hooks);
}

/** The running dashboard's address, or a new one started in the background (it outlives pi). */
async function dashboard(ctx: ExtensionCommandContext, hooks: CommandHooks) {
  const stateDir = statePaths().dir;
  const running = runningInstance(stateDir);
  if (running) return say(ctx, hooks, `The dashboard is running: ${running.url}`);
  const bin = fileURLToPath(new URL("../../bin/session-retention.js", import.meta.url));
  // Its output goes to a log file, not a pipe: a pipe would break when pi exits.
  ensurePrivateDir(stateDir);
  const log = openSync(join(stateDir, "dashboard.log"), "a", 0o600);
  // Any free port: the address carries a per-launch token anyway, so a fixed port buys nothing and
  // could be taken by another program.
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...(ctx.hasUI ? [] : ["--no-open"])], {
    detached: true,
    stdio: ["ignore", log, log],
  });
  child.unref();
  closeSync(log);
  for (let waited = 0; waited < 10_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = runningInstance(stateDir);
    if (started) return say(ctx, hooks, `Dashboard started: ${started.url}`);
    if (child.exitCode !== null) break;
  }
  say(ctx, hooks, `The dashboard did not start; see ${join(stateDir, "dashboard.log")}.`, "error");
}
