// Writes a built session as pi would: JSON lines with real times, pi's folder and file names, its mtime.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Entry } from "./session-builder.js";

/** Turns an entry built with relative times into pi's JSON line. */
export function serialize(entry: Entry, startMs: number): string {
  const copy: Entry = { ...entry, timestamp: new Date(startMs + (entry.timestamp as number)).toISOString() };
  const message = entry.message as Record<string, unknown> | undefined;
  if (message) copy.message = { ...message, timestamp: startMs + (message.timestamp as number) };
  return JSON.stringify(copy);
}

/** pi's folder name for a cwd: `--<cwd without its leading slash, / \ : replaced by ->--`. */
export function piFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** pi's file name: `<ISO time with : and . replaced by ->_<session id>.jsonl`. */
function piFileName(createdMs: number, id: string): string {
  return `${new Date(createdMs).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** Called before each folder or file is created, with its path relative to the store. */
export type BeforeCreate = (relativePath: string) => void;

export function writeSessionFile(
  root: string,
  beforeCreate: BeforeCreate,
  cwd: string,
  startMs: number,
  id: string,
  lines: string[],
  lastMs: number,
): { path: string; bytes: number } {
  const folder = piFolderName(cwd);
  const folderPath = join(root, folder);
  if (!existsSync(folderPath)) {
    beforeCreate(folder);
    mkdirSync(folderPath, { mode: 0o700 }); // inside the state dir: private like the rest of it
  }
  const fileName = piFileName(startMs, id);
  const path = join(folderPath, fileName);
  beforeCreate(`${folder}/${fileName}`);
  const content = `${lines.join("\n")}\n`;
  // "wx": never overwrite a file that is already there, whoever wrote it.
  writeFileSync(path, content, { flag: "wx", mode: 0o600 });
  // "Last used" is the file's mtime: make it the time of the last entry, as if pi had just written it.
  // In seconds, half a millisecond in: the conversion to nanoseconds truncates, and `lastMs` exactly
  // could come out one millisecond early.
  const lastUsed = (lastMs + 0.5) / 1000;
  utimesSync(path, lastUsed, lastUsed);
  return { path, bytes: Buffer.byteLength(content) };
}
