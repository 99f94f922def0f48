// The "notes" agent's reader (see adapter.ts): each `<id>.note` file in the root is a session of as
// many messages as it has lines; anything else there is a problem, never a session.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { SessionRecord } from "../../shared/session-record.js";
import type { StoreScan } from "../../server/stores/adapter-types.js";
import { NOTES_KIND } from "./adapter.js";

const NOTE = /^([a-z0-9-]+)\.note$/;

export function scanNotesRoot(root: string): StoreScan {
  const records: SessionRecord[] = [];
  const problems: ScanProblem[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    const stat = lstatSync(path, { bigint: true });
    const id = NOTE.exec(name)?.[1];
    if (!id || !stat.isFile()) {
      problems.push({ code: "not-a-session", path, message: "not a note (<id>.note)" });
      continue;
    }
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).length;
    const modifiedAt = new Date(Number(stat.mtimeMs)).toISOString();
    records.push({
      id: `notes:${id}`,
      store: { kind: NOTES_KIND, root },
      path,
      namespace: root,
      sizeBytes: Number(stat.size),
      createdAt: new Date(Number(stat.birthtimeMs) || Number(stat.mtimeMs)).toISOString(),
      modifiedAt,
      lastUsedAt: modifiedAt,
      fingerprint: {
        dev: Number(stat.dev),
        ino: Number(stat.ino),
        size: Number(stat.size),
        mtimeNs: String(stat.mtimeNs),
      },
      messageCount: lines,
      messageCounts: { user: 0, assistant: 0, toolResult: 0, other: lines },
      warnings: [],
    });
  }
  return { records, problems };
}
