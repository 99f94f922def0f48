// The policy editor's state: the draft (the config file's own JSON plus the edits), its problems by
// the server's own schema (shared/config.ts), the live preview and the save. The draft is exactly
// what Save sends — a value a field could not parse stays in it as typed, so the schema names it at
// its path and Save stays disabled, instead of the setting being dropped. Pure helpers (parsing,
// matching, the preview by rule) are exported for the sections and the tests.
import { computed, signal } from "@preact/signals";
import type { PolicyResponse, SessionRow } from "../../../shared/api.js";
import { type ConfigProblem, validateConfig } from "../../../shared/config.js";
import { compileGlob, globProblem } from "../../../shared/glob.js";
import { CANDIDATE_RULES, type CandidateRule, type Plan, RULE_LABELS } from "../../../shared/plan.js";
import { protectedMatch } from "../../../shared/policy.js";
import { ApiError, type ApiClient } from "../api/client.js";

export type Draft = Record<string, unknown>;

// ---- paths -------------------------------------------------------------------------------------

const keysOf = (path: string) => path.split(".");

export function getIn(source: unknown, path: string): unknown {
  let value = source;
  for (const key of keysOf(path)) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}

/** A copy of `draft` with `path` set, or removed when `value` is undefined (back to the default). */
export function setIn(draft: Draft, path: string, value: unknown): Draft {
  const [head, ...rest] = keysOf(path);
  const copy = { ...draft };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head!];
    else copy[head!] = value;
    return copy;
  }
  const inner = setIn((draft[head!] as Draft | undefined) ?? {}, rest.join("."), value);
  if (Object.keys(inner).length === 0) delete copy[head!];
  else copy[head!] = inner;
  return copy;
}

/** The problems at a field's path or inside it (`quota.namespaces` also owns `quota.namespaces[0].pattern`). */
export const problemsAt = (problems: readonly ConfigProblem[], path: string) =>
  problems.filter((p) => p.path === path || p.path.startsWith(`${path}[`) || p.path.startsWith(`${path}.`));

/**
 * A schema message in the form's words: the file's `null` ("no limit", "off") is an empty field
 * here. The meaning is the server's; only the spelling changes.
 */
export const inFormWords = (message: string) =>
  message
    .replace(/\(use null (for|to) ([^)]*)\)/, "(leave it empty $1 $2)")
    .replace(/ or null \(/, " or empty (");

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** The paths where two JSON values differ (a setting the server dropped or changed). */
export function differingPaths(a: unknown, b: unknown, at = ""): string[] {
  if (sameJson(a, b)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(a) || !isObject(b)) return [at || "(top level)"];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differingPaths(a[k], b[k], at ? `${at}.${k}` : k));
}

// ---- numbers and units -------------------------------------------------------------------------

/** Binary units, labelled as such: a GiB is 1024³ bytes. */
export const BYTE_UNITS = { MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 } as const;
export type ByteUnit = keyof typeof BYTE_UNITS;

/**
 * A number field's text as the value the draft holds: empty → `empty`, a number → that number, and
 * anything else → the text itself, which the schema then refuses at the field's path.
 */
export function numberFromText<E>(text: string, empty: E): number | string | E {
  const trimmed = text.trim();
  if (trimmed === "") return empty;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : text;
}

/** An amount in a unit as whole bytes (the schema's unit), with the same rules as `numberFromText`. */
export function bytesFromText(text: string, unit: ByteUnit): number | string | null {
  const value = numberFromText(text, null);
  return typeof value === "number" ? Math.round(value * BYTE_UNITS[unit]) : value;
}

/** A draft value as a number field's text: a number as is, text typed earlier as typed, else empty. */
export const textOfNumber = (value: unknown) =>
  typeof value === "number" ? String(value) : typeof value === "string" ? value : "";

/** Bytes as text in a unit, to 3 decimals (what a GiB field shows for 1.5 GiB is "1.5"). */
export const textOfBytes = (value: unknown, unit: ByteUnit) =>
  typeof value === "number" ? String(+(value / BYTE_UNITS[unit]).toFixed(3)) : textOfNumber(value);

/** The unit a byte amount reads best in: the largest it is at least 1 of (GiB for none). */
export function unitFor(bytes: unknown): ByteUnit {
  if (typeof bytes !== "number" || bytes <= 0) return "GiB";
  const units = Object.keys(BYTE_UNITS) as ByteUnit[];
  return units.reduce((best, unit) => (bytes >= BYTE_UNITS[unit] ? unit : best), "MiB" as ByteUnit);
}

// ---- live matches against the current scan -----------------------------------------------------

/**
 * Per namespace-quota pattern: how many namespaces it matches, and how many of them it governs
 * (the first matching pattern wins, as in the engine). Undefined for a pattern that is not a glob.
 */
export function namespaceMatches(
  patterns: readonly unknown[],
  namespaces: readonly string[],
): Array<{ matched: number; governed: number } | undefined> {
  const compiled = patterns.map((p) =>
    typeof p === "string" && !globProblem(p) ? compileGlob(p) : undefined,
  );
  const result = compiled.map((regex) => (regex ? { matched: 0, governed: 0 } : undefined));
  for (const namespace of namespaces) {
    let governed = false;
    compiled.forEach((regex, i) => {
      if (!regex?.test(namespace)) return;
      result[i]!.matched++;
      if (!governed) {
        result[i]!.governed++;
        governed = true;
      }
    });
  }
  return result;
}

/**
 * Per protected pattern: how many sessions it matches (path, file name, namespace or name). At
 * 100,000 sessions a pattern takes about 0.1 s, so counts are kept in `cache` (one per scan):
 * typing in one row recounts that row only.
 */
export function protectedMatches(
  patterns: readonly unknown[],
  sessions: readonly Pick<SessionRow, "path" | "namespace" | "name">[],
  cache = new Map<string, number>(),
): Array<number | undefined> {
  return patterns.map((pattern) => {
    if (typeof pattern !== "string" || globProblem(pattern)) return undefined;
    const known = cache.get(pattern);
    if (known !== undefined) return known;
    const compiled = [{ pattern, regex: compileGlob(pattern) }];
    let n = 0;
    for (const s of sessions) if (protectedMatch(s, compiled)) n++;
    cache.set(pattern, n);
    return n;
  });
}

/** A store root as an absolute folder (`~/x` in `home`), without a trailing slash. */
export const absoluteRoot = (root: string, home: string) =>
  (root === "~" ? home : root.startsWith("~/") ? `${home}/${root.slice(2)}` : root).replace(/\/+$/, "");

/** Per store row: how many sessions of the last scan are of its kind and inside its root. */
export function storeMatches(
  stores: readonly unknown[],
  sessions: readonly Pick<SessionRow, "path" | "store">[],
  home: string,
): number[] {
  return stores.map((entry) => {
    const { kind, root } = (entry ?? {}) as { kind?: unknown; root?: unknown };
    if (typeof root !== "string" || root.trim() === "") return 0;
    const prefix = `${absoluteRoot(root, home)}/`;
    return sessions.filter((s) => s.store === kind && s.path.startsWith(prefix)).length;
  });
}

// ---- the preview by rule -----------------------------------------------------------------------

export interface RuleShare {
  rule: Exclude<CandidateRule, "selected">;
  label: string;
  sessions: number;
  bytes: number;
}

/** What each rule of a plan would clean: every rule, in the engine's order, zero when it takes none. */
export function previewByRule(plan: Pick<Plan, "candidates">): RuleShare[] {
  return CANDIDATE_RULES.filter((r) => r !== "selected").map((rule) => {
    const chosen = plan.candidates.filter((c) => c.rule === rule);
    return {
      rule,
      label: RULE_LABELS[rule],
      sessions: chosen.length,
      bytes: chosen.reduce((sum, c) => sum + c.sizeBytes, 0),
    };
  });
}

// ---- the store ---------------------------------------------------------------------------------

/** Where the folder rules need a home and the server did not say one: it matches no real folder. */
const NO_HOME = "/nonexistent-home";

export type SaveStatus =
  | { kind: "saved"; message: string }
  | { kind: "rejected"; message: string }
  | { kind: "error"; message: string };

export function createPolicyForm(api: Pick<ApiClient, "policy" | "previewPlan" | "savePolicy">) {
  const policy = signal<PolicyResponse | undefined>(undefined);
  const draft = signal<Draft>({});
  const loadError = signal<string | undefined>(undefined);
  const status = signal<SaveStatus | undefined>(undefined);
  /** What the server said of the draft last (a preview or a save it refused). */
  const serverProblems = signal<ConfigProblem[]>([]);
  const preview = signal<Plan | undefined>(undefined);
  const previewError = signal<string | undefined>(undefined);

  const home = computed(() => policy.value?.home ?? NO_HOME);
  const saved = computed<Draft>(() => (policy.value?.raw as Draft | undefined) ?? {});
  /** The draft's problems by the server's own validation; Save waits until there are none. */
  const problems = computed<ConfigProblem[]>(() => {
    const checked = validateConfig(draft.value, home.value);
    return checked.ok ? [] : checked.problems;
  });
  /** The ones to show: this page's, plus any the server found that it did not. */
  const shownProblems = computed(() => {
    const own = problems.value;
    const said = new Set(own.map((p) => p.path + p.message));
    return [...own, ...serverProblems.value.filter((p) => !said.has(p.path + p.message))];
  });
  const dirty = computed(() => !sameJson(draft.value, saved.value));
  const canSave = computed(() => dirty.value && shownProblems.value.length === 0);

  async function load() {
    try {
      const answer = await api.policy();
      policy.value = answer;
      draft.value = (answer.raw as Draft | undefined) ?? {};
      loadError.value = undefined;
    } catch (e) {
      loadError.value = (e as Error).message;
    }
  }

  function edit(path: string, value: unknown) {
    draft.value = setIn(draft.value, path, value);
    serverProblems.value = [];
    status.value = undefined;
  }

  function discard() {
    draft.value = saved.value;
    serverProblems.value = [];
    status.value = undefined;
  }

  let previewRequest = 0;
  /** Asks the server what the draft would do; answers to older drafts are dropped. */
  async function refreshPreview() {
    const request = ++previewRequest;
    if (problems.value.length > 0) {
      preview.value = undefined;
      return;
    }
    try {
      const plan = await api.previewPlan(draft.value);
      if (request !== previewRequest) return;
      preview.value = plan;
      previewError.value = undefined;
      serverProblems.value = [];
    } catch (e) {
      if (request !== previewRequest) return;
      preview.value = undefined;
      if (e instanceof ApiError && e.problems.length > 0) serverProblems.value = e.problems;
      else previewError.value = (e as Error).message;
    }
  }

  /**
   * Saves the draft when it has no problem. "Saved" only when the file now holds exactly the
   * draft: a refused save says so and keeps the draft, and a setting the server did not keep is named.
   */
  async function save(): Promise<boolean> {
    if (!canSave.value) return false;
    const sent = draft.value;
    try {
      const answer = await api.savePolicy(sent);
      policy.value = answer;
      const lost = differingPaths(sent, answer.raw ?? {});
      if (lost.length > 0) {
        draft.value = sent;
        status.value = {
          kind: "error",
          message: `The server wrote the file, but it differs from this form at ${lost.join(", ")}; check those settings.`,
        };
        return false;
      }
      draft.value = (answer.raw as Draft | undefined) ?? {};
      status.value = { kind: "saved", message: `Saved to ${answer.path}.` };
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.problems.length > 0) {
        serverProblems.value = e.problems;
        status.value = {
          kind: "rejected",
          message: `Not saved: the server refused the policy (${e.problems.length} problem${e.problems.length === 1 ? "" : "s"}); the file is unchanged.`,
        };
      } else status.value = { kind: "error", message: `Not saved: ${(e as Error).message}` };
      return false;
    }
  }

  return {
    policy,
    draft,
    loadError,
    status,
    preview,
    previewError,
    home,
    problems,
    shownProblems,
    dirty,
    canSave,
    load,
    edit,
    discard,
    refreshPreview,
    save,
  };
}

export type PolicyForm = ReturnType<typeof createPolicyForm>;
