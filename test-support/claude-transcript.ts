// A small Claude Code transcript written by hand (`projects/<cwd folder>/<id>.jsonl`): a user and an
// assistant line per turn, each with the fields the adapter reads (type, sessionId, cwd, timestamp),
// a title when asked (as `/rename` writes it), the prompt Claude's session list shows when asked (a
// `last-prompt` line), an archive state when asked (`<id>/archived.json`, as 2.1.332 writes it), and
// the file's time set, since Claude's own cleanup judges a session by it alone.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes the transcript in the Claude store at `root` and returns its path. */
export function writeClaudeTranscript(
  root: string,
  {
    id,
    cwd,
    turns = 2,
    modified,
    title,
    lastPrompt,
    archivedAt,
  }: {
    id: string;
    cwd: string;
    turns?: number;
    modified: Date;
    title?: string;
    lastPrompt?: string;
    archivedAt?: Date;
  },
): string {
  const folder = join(root, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(folder, { recursive: true });
  const lines = [];
  for (let turn = 0; turn < turns; turn++) {
    const timestamp = new Date(modified.getTime() - (turns - turn) * 60_000).toISOString();
    for (const type of ["user", "assistant"] as const)
      lines.push(
        JSON.stringify({
          type,
          sessionId: id,
          cwd,
          timestamp,
          message: { role: type, content: `${type} turn ${turn}: ${"words ".repeat(40)}` },
        }),
      );
  }
  if (title !== undefined)
    lines.push(JSON.stringify({ type: "custom-title", customTitle: title, sessionId: id }));
  if (lastPrompt !== undefined)
    lines.push(JSON.stringify({ type: "last-prompt", lastPrompt, leafUuid: null, sessionId: id }));
  if (archivedAt !== undefined) {
    const archived = join(folder, id, "archived.json");
    mkdirSync(join(folder, id), { recursive: true });
    writeFileSync(archived, JSON.stringify({ archived: true, at: archivedAt.toISOString(), by: "user" }));
    utimesSync(archived, archivedAt, archivedAt);
    utimesSync(join(folder, id), archivedAt, archivedAt);
  }
  const path = join(folder, `${id}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  utimesSync(path, modified, modified);
  return path;
}
