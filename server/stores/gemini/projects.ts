// Which project each folder of Gemini CLI's `tmp/` belongs to. A chat does not say where it was
// written (its `projectHash` is a one-way hash of the path), so the project comes from Gemini's own
// index: the folder's ownership marker `tmp/<slug>/.project_root` (the project's absolute path),
// else `projects.json` (`{"projects": {"<path>": "<slug>"}}`). A folder of an install before slugs
// is named by the sha256 of its project's path: that is known only when some marker or registry
// entry names a path with that hash. Read defensively: Gemini resets an invalid registry, and so do
// we. (google-gemini/gemini-cli packages/core/src/config/projectRegistry.ts, storage.ts.)
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { readSmallTextFile } from "../../fs/read-small-file.js";
import { GEMINI_PROJECTS, projectHash } from "./location.js";

const MARKER = ".project_root";
/** A slug as the registry must hold it (Gemini throws the whole registry away otherwise). */
const SLUG = /^[a-z0-9-]+$/;
/** A folder named the way Gemini named them before slugs: the sha256 of the project's path. */
export const HASH_FOLDER = /^[0-9a-f]{64}$/;

export interface GeminiProjects {
  /** A project folder's project (absolute path), if anything says which, and what says it. */
  projectOf(folder: string): { path: string; from: string } | undefined;
  /**
   * The folder Gemini CLI started in `path` would use, if it has one already: the registry's entry
   * while the folder's marker does not name another project, else the folder whose marker names it.
   */
  folderOf(path: string): string | undefined;
}

const readText = (path: string) => {
  try {
    return readSmallTextFile(path, { maxBytes: 4 * 1024 * 1024, what: "Gemini CLI project index" });
  } catch {
    return undefined; // missing or unusable: as if it were not there
  }
};

/** `projects.json` as Gemini reads it: every entry a path and a valid slug, or nothing at all. */
function readRegistry(root: string): Map<string, string> {
  const registry = new Map<string, string>();
  const text = readText(join(root, "projects.json"));
  if (text === undefined) return registry;
  try {
    const projects = (JSON.parse(text) as { projects?: unknown }).projects;
    if (typeof projects !== "object" || projects === null || Array.isArray(projects)) return registry;
    const entries = Object.entries(projects as Record<string, unknown>);
    if (!entries.every(([, slug]) => typeof slug === "string" && SLUG.test(slug))) return registry;
    for (const [path, slug] of entries) registry.set(resolve(path), slug as string);
  } catch {
    // not JSON: Gemini starts over with an empty registry
  }
  return registry;
}

export function readGeminiProjects(root: string): GeminiProjects {
  const tmp = join(root, GEMINI_PROJECTS);
  const registry = readRegistry(root);
  let folders: string[];
  try {
    folders = readdirSync(tmp).sort();
  } catch {
    folders = [];
  }
  /** Folder → the path its marker names. */
  const markers = new Map<string, string>();
  for (const folder of folders) {
    const owner = readText(join(tmp, folder, MARKER))?.trim();
    if (owner) markers.set(folder, resolve(owner));
  }
  /** Every project path we know of, by its hash: what names a folder from before slugs. */
  const byHash = new Map<string, string>();
  for (const path of [...registry.keys(), ...markers.values()]) byHash.set(projectHash(path), path);

  return {
    projectOf(folder) {
      const marked = markers.get(folder);
      if (marked !== undefined) return { path: marked, from: join(tmp, folder, MARKER) };
      // A registry entry counts only while no marker says otherwise (Gemini's ownership check).
      for (const [path, slug] of registry)
        if (slug === folder) return { path, from: join(root, "projects.json") };
      const hashed = HASH_FOLDER.test(folder) ? byHash.get(folder) : undefined;
      return hashed === undefined ? undefined : { path: hashed, from: `the sha256 of ${hashed}` };
    },
    folderOf(path) {
      const project = resolve(path);
      const slug = registry.get(project);
      const owner = slug === undefined ? undefined : markers.get(slug);
      if (slug !== undefined && (owner === undefined || owner === project)) return slug;
      return folders.find((folder) => markers.get(folder) === project);
    },
  };
}
