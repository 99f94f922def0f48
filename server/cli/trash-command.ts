// `session-retention trash list|restore|purge|empty`: what was soft-deleted, bringing it back, and
// the only hard delete there is — of soft-deleted items, with a confirmation that echoes exactly
// what will go.
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { formatBytes, formatRelativeTime } from "../../shared/format.js";
import { resolveTrashRefs, type TrashActionResult, type TrashEntry } from "../../shared/trash.js";
import { visible } from "../../shared/visible-text.js";
import { checkNote } from "../delete/agent-checks.js";
import { emptySelection, listTrash, purge, purgeSelection, restore } from "../delete/deletion-engine.js";
import { CONFIG_FLAGS, configOptions } from "./config-command.js";
import { parseDuration } from "./duration.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { renderTable } from "./table.js";

export const TRASH_HELP = `Usage: session-retention trash <list|restore|purge|empty> [options]

  list [--json] [--all]                what is in the trash (--all: also restored, purged, not moved)
  restore REF…                         put sessions back where they were
  purge REF… --confirm COUNT:BYTES     delete soft-deleted sessions for good
  empty --older-than 30d --confirm COUNT:BYTES
                                       purge everything deleted longer ago than that

REF: an operation id (everything of that \`clean\` still in the trash), an entry id (operation:n),
a session id, or the first 8 or more characters of one of these.
A purge must be confirmed with the count and bytes of exactly what it removes; run it without
--confirm to see them. It is refused while the config is invalid, and it skips any entry whose copy
in the trash is no longer the one session-retention put there. Restoring never overwrites: if the
original path exists again, both are kept.

Options: --config FILE, --set KEY=VALUE (the config a purge checks), --json (one JSON document, for
every action: list's entries, or the restore's or purge's result), --all, -h/--help.

Examples:
  session-retention trash list
  session-retention trash restore 20261128T063000Z-a1b2c3
  session-retention trash purge 20261128T063000Z-a1b2c3
  session-retention trash empty --older-than 30d`;

const ACTIVE_STATES = new Set(["in-trash", "moving", "restoring", "purging", "conflict", "gone"]);

export async function runTrash(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      json: { type: "boolean", default: false },
      all: { type: "boolean", default: false },
      confirm: { type: "string" },
      "older-than": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...refs] = positionals;
  if (values.help || action === undefined) {
    io.stdout(TRASH_HELP);
    return values.help ? 0 : 2;
  }
  // A purge reads this config under the lock, and is refused while it is invalid.
  const engine = { actor: "cli" as const, config: configOptions(values) };
  const home = homedir();
  // Paths as shown: home as ~, and visible.
  const short = (path: string) => visible(path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);

  switch (action) {
    case "list": {
      const { entries, unreadableLines } = listTrash(engine);
      const shown = values.all ? entries : entries.filter((e) => ACTIVE_STATES.has(e.state));
      if (values.json) {
        io.stdout(JSON.stringify({ entries: shown, unreadableLines }));
        return 0;
      }
      if (shown.length === 0) io.stdout("The trash is empty.");
      else io.stdout(renderList(shown, short));
      const inTrash = shown.filter((e) => e.state === "in-trash");
      if (inTrash.length > 0)
        io.stdout(
          `${inTrash.length} in the trash, ${formatBytes(inTrash.reduce((t, e) => t + e.sizeBytes, 0))}.`,
        );
      for (const odd of shown.filter((e) => e.state === "conflict" || e.state === "gone"))
        io.stdout(
          `! ${odd.state === "gone" ? "gone from the trash" : "conflict"}: ${short(odd.originalPath)} — ${visible(odd.reason ?? "")}`,
        );
      if (unreadableLines > 0) io.stderr(`note: ${unreadableLines} unreadable line(s) in the trash ledger`);
      return 0;
    }
    case "restore": {
      if (refs.length === 0)
        throw new UsageError("trash restore wants at least one operation, entry or session id");
      // All refs are resolved first: one that names nothing stops the restore before anything moves.
      const { entries, problems } = resolveTrashRefs(listTrash(engine).entries, refs);
      if (problems.length > 0) throw new UsageError(problems.join("; "));
      const result = await restore(
        entries.map((e) => e.entryId),
        engine,
      );
      return values.json ? jsonReport(result, io) : report(result, "restored", io, short);
    }
    case "purge":
    case "empty": {
      let selection: string[];
      if (action === "empty") {
        if (refs.length > 0) throw new UsageError(`trash empty takes no ids (use trash purge)`);
        if (!values["older-than"]) throw new UsageError("trash empty wants --older-than DURATION (e.g. 30d)");
        const cutoff = Date.now() - parseDuration(values["older-than"], "--older-than");
        selection = emptySelection(new Date(cutoff), engine);
        if (selection.length === 0) {
          if (values.json) return jsonReport({ done: [], skipped: [] }, io);
          io.stdout(`Nothing in the trash was deleted more than ${values["older-than"]} ago.`);
          return 0;
        }
      } else {
        if (refs.length === 0)
          throw new UsageError("trash purge wants at least one operation, entry or session id");
        selection = refs;
      }
      const { selected, problems, count, bytes, confirmation } = purgeSelection(selection, engine);
      if (problems.length > 0) throw new UsageError(problems.join("; "));
      if (values.confirm === undefined) {
        if (values.json) {
          io.stdout(JSON.stringify({ needsConfirmation: confirmation, count, bytes, entries: selected }));
          return 2;
        }
        io.stdout(renderList(selected, short));
        io.stdout(
          `This deletes ${count} session${count === 1 ? "" : "s"}, ${formatBytes(bytes)}, for good. To do it, add: --confirm ${confirmation}`,
        );
        return 2;
      }
      const result = await purge(selection, values.confirm, engine);
      return values.json ? jsonReport(result, io) : report(result, "purged", io, short);
    }
    default:
      throw new UsageError(`trash: unknown action "${action}" (list, restore, purge or empty)`);
  }
}

function renderList(entries: readonly TrashEntry[], short: (path: string) => string): string {
  const now = new Date();
  return renderTable(
    // The title as recorded at delete time; entries from before then have none (their path says it).
    ["ENTRY", "DELETED", "SIZE", "WHERE", "STATE", "TITLE", "ORIGINAL PATH"],
    entries.map((e) => [
      e.entryId,
      formatRelativeTime(e.deletedAt, now),
      formatBytes(e.sizeBytes),
      e.target === "system-trash" ? "system trash" : "quarantine",
      e.state,
      e.title ?? "",
      short(e.originalPath),
    ]),
    [2],
  );
}

/** A restore's or purge's result as one JSON document; a refusal is still said on stderr. */
function jsonReport(result: TrashActionResult, io: CliIo): number {
  if (result.refused) io.stderr(`session-retention: ${visible(result.refused)}`);
  io.stdout(JSON.stringify(result));
  return result.refused ? 2 : result.skipped.length > 0 ? 1 : 0;
}

function report(result: TrashActionResult, verb: string, io: CliIo, short: (path: string) => string): number {
  for (const r of result.recovered ?? [])
    io.stderr(`recovered an interrupted operation: ${short(r.path)} — ${r.result}: ${visible(r.detail)}`);
  if (result.refused) {
    io.stderr(`session-retention: ${visible(result.refused)}`);
    return 2;
  }
  for (const d of result.done)
    io.stdout(
      `${verb} ${d.title !== undefined ? `“${visible(d.title)}” ` : ""}${short(d.path)} (${formatBytes(d.bytes)})`,
    );
  for (const s of result.skipped) io.stdout(`skipped ${visible(s.ref)} — ${visible(s.reason)}`);
  // Its agent's own cleanup would delete it again: said, with what to do.
  for (const s of result.sweptAgain ?? []) io.stdout(`! ${short(s.path)}: ${visible(s.message)}`);
  // The agent's own look at its store after the restore (Codex: `codex doctor`).
  for (const check of result.checks ?? []) io.stdout(`note: ${visible(checkNote(check))}`);
  const bytes = result.done.reduce((t, d) => t + d.bytes, 0);
  // Only a purge frees space: a restore puts the bytes back where they were.
  io.stdout(
    `${result.done.length} ${verb}, ${formatBytes(bytes)}${verb === "purged" ? " freed" : ""}${result.skipped.length ? `, ${result.skipped.length} skipped` : ""}.`,
  );
  return result.skipped.length > 0 ? 1 : 0;
}
