// pi's session index: `<agentDir>/sessions-meta/<uuid>.meta.json`, written by an indexing
// extension with a name, description, summary and tags per session. Joined onto the session records
// by id; a corrupt file is a warning on its session, and a file whose session is gone is an orphan —
// a tiny cleanup candidate of its own.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { SessionRecord } from "../../../shared/session-record.js";
import { readSmallTextFile, type UnreadableFileError } from "../../fs/read-small-file.js";

export interface SessionMeta {
  sessionId: string;
  sessionFile?: string;
  parentSessionFile?: string;
  name?: string;
  description?: string;
  summary?: string;
  tags?: string[];
}

export interface OrphanedMeta {
  path: string;
  sessionId: string;
  sizeBytes: number;
}

const META_SUFFIX = ".meta.json";
/** Far more than a name, a description, a summary and tags: a bigger file is not read. */
const META_MAX_BYTES = 1024 * 1024;

/** The meta file's fields we use, or why it is unusable. Not strict: the index may add fields. */
async function parseMeta(text: string): Promise<SessionMeta | string> {
  // zod is loaded only when a store has meta files: the plain scan path stays without it.
  const { z } = await import("zod");
  const optionalText = z.string().optional().nullable();
  const schema = z.object({
    sessionId: z.string().min(1),
    sessionFile: optionalText,
    parentSessionFile: optionalText,
    name: optionalText,
    description: optionalText,
    summary: optionalText,
    tags: z.array(z.string()).optional().nullable(),
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`).join("; ");
  const meta: SessionMeta = { sessionId: parsed.data.sessionId };
  for (const key of ["sessionFile", "parentSessionFile", "name", "description", "summary"] as const) {
    const value = parsed.data[key];
    if (typeof value === "string") meta[key] = value;
  }
  if (parsed.data.tags) meta.tags = parsed.data.tags;
  return meta;
}

/**
 * Adds name, description, summary, tags and the parent from the index to the records of `metaDir`'s
 * sessions (pi's own `session_info` name wins over the index's), and returns the orphans.
 */
export async function joinSessionMeta(
  records: SessionRecord[],
  metaDir: string,
  /** The record at this index, to change: a scan may copy it first (it may be shared with an earlier scan). */
  own: (index: number) => SessionRecord = (index) => records[index]!,
): Promise<OrphanedMeta[]> {
  let names: string[];
  try {
    names = readdirSync(metaDir).filter((name) => name.endsWith(META_SUFFIX));
  } catch {
    return []; // no index on this machine
  }
  if (names.length === 0) return [];
  const byId = new Map<string, number>();
  records.forEach((r, index) => {
    if (r.store.kind === "pi") byId.set(r.id, index);
  });
  const orphans: OrphanedMeta[] = [];
  for (const name of names) {
    const path = join(metaDir, name);
    const id = name.slice(0, -META_SUFFIX.length);
    const index = byId.get(id);
    let sizeBytes: number;
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      sizeBytes = stat.size;
    } catch {
      continue;
    }
    if (index === undefined) {
      orphans.push({ path, sessionId: id, sizeBytes });
      continue;
    }
    let text: string;
    try {
      // Bounded, and never through a link nor from a FIFO put there since the lstat.
      text = readSmallTextFile(path, {
        maxBytes: META_MAX_BYTES,
        what: "session index file",
        noFollow: true,
      });
    } catch (error) {
      if ((error as UnreadableFileError).code !== "ENOENT")
        own(index).warnings.push({ code: "corrupt-meta", message: (error as Error).message });
      continue;
    }
    const record = own(index);
    record.metaFile = path;
    const meta = await parseMeta(text);
    if (typeof meta === "string") {
      record.warnings.push({
        code: "corrupt-meta",
        message: `session index file ${path} is unusable: ${meta}`,
      });
      continue;
    }
    if (meta.sessionId !== id)
      record.warnings.push({
        code: "corrupt-meta",
        message: `session index file ${path} names session ${meta.sessionId}, not ${id}`,
      });
    if (record.name === undefined && meta.name) record.name = meta.name;
    if (meta.description) record.description = meta.description;
    if (meta.summary) record.summary = meta.summary;
    if (meta.tags && meta.tags.length > 0) record.tags = meta.tags;
    if (record.parentSession === undefined && meta.parentSessionFile)
      record.parentSession = meta.parentSessionFile;
  }
  return orphans.sort((a, b) => (a.path < b.path ? -1 : 1));
}
