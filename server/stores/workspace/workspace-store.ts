// Sandbox workspaces: `workspace/<session_id>/` with `.metadata.json`
// `{ "created_at", "updated_at" }`. Age comes from the metadata (updated on every execution), not
// from file times; a workspace whose metadata is missing or corrupt is listed with a warning and is
// never a pruning candidate — its age is unknown.
import { readSmallTextFile, type UnreadableFileError } from "../../fs/read-small-file.js";
import { basename, join } from "node:path";
import { z } from "zod";
import type { SessionRecord, SessionWarning } from "../../../shared/session-record.js";
import type { StoreScan } from "../adapter-types.js";
import { listSessionFolders, measureFolder } from "../folder-session.js";

export const METADATA_FILE = ".metadata.json";

const timestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "not a date and time" });

/** Not strict: the host may write more fields (execution_count, last_error…), which we ignore. */
export const WorkspaceMetadataSchema = z.object({ created_at: timestamp, updated_at: timestamp });
export type WorkspaceMetadata = z.infer<typeof WorkspaceMetadataSchema>;

export type MetadataRead =
  | { ok: true; metadata: WorkspaceMetadata }
  | { ok: false; code: "missing-metadata" | "corrupt-metadata"; message: string };

/** Far more than two timestamps and a few counters: a bigger file is not metadata we wrote. */
const METADATA_MAX_BYTES = 64 * 1024;

export function readWorkspaceMetadata(dir: string): MetadataRead {
  const path = join(dir, METADATA_FILE);
  let text: string;
  try {
    // Never through a link out of the workspace, never blocked by a FIFO, never a huge file.
    text = readSmallTextFile(path, { maxBytes: METADATA_MAX_BYTES, what: METADATA_FILE, noFollow: true });
  } catch (error) {
    const missing = (error as UnreadableFileError).code === "ENOENT";
    return {
      ok: false,
      code: missing ? "missing-metadata" : "corrupt-metadata",
      message: missing ? `no ${METADATA_FILE}: age unknown, never pruned` : `${(error as Error).message}`,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: "corrupt-metadata",
      message: `${METADATA_FILE} is not JSON (${(error as Error).message}): age unknown, never pruned`,
    };
  }
  const parsed = WorkspaceMetadataSchema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      code: "corrupt-metadata",
      message: `${METADATA_FILE}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`).join("; ")}; age unknown, never pruned`,
    };
  return { ok: true, metadata: parsed.data };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A workspace is a folder with valid `.metadata.json`; one without is not a session of the store
 * (its age is unknown, so nothing may decide to prune it): reported, with how to repair it.
 */
export function recogniseWorkspace(folder: string): { session: WorkspaceMetadata } | { not: string } {
  const read = readWorkspaceMetadata(folder);
  return read.ok
    ? { session: read.metadata }
    : { not: `${read.message} (\`session-retention repair-metadata\` rebuilds it)` };
}

export function scanWorkspaceRoot(root: string): StoreScan {
  const records: SessionRecord[] = [];
  const { folders, problems } = listSessionFolders(root, "workspace", recogniseWorkspace);
  for (const { path: folder, session: metadata } of folders) {
    let facts;
    try {
      facts = measureFolder(folder);
    } catch (error) {
      problems.push({ code: "unreadable", path: folder, message: (error as Error).message });
      continue;
    }
    const warnings: SessionWarning[] = [];
    if (facts.symlinks.length > 0)
      warnings.push({
        code: "symlink-inside",
        message: `${facts.symlinks.length} symlink(s) inside, not followed and not counted (e.g. ${facts.symlinks[0]})`,
      });
    const modifiedAt = iso(facts.newestMtimeMs);
    records.push({
      id: `workspace:${basename(folder)}`,
      store: { kind: "workspace", root },
      path: folder,
      namespace: "workspace",
      sizeBytes: facts.fingerprint.size,
      createdAt: iso(Date.parse(metadata.created_at)),
      modifiedAt,
      // The metadata's updated_at is the activity the host records; file times only feed the grace window.
      lastUsedAt: iso(Date.parse(metadata.updated_at)),
      fingerprint: facts.fingerprint,
      messageCount: 0,
      messageCounts: { user: 0, assistant: 0, toolResult: 0, other: 0 },
      warnings,
    });
  }
  return { records, problems };
}
