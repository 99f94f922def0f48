// One session's entries, built in pi's exact shapes by hand (pi is only a devDependency).
import {
  type DemoModel,
  type DemoProject,
  FOLLOW_UPS,
  isOpenAi,
  NOUNS,
  OPUS,
  SONNET,
  VERBS,
} from "./demo-content.js";
import { screenshotPng } from "./png.js";
import { BASE62, BASE64_ALPHABET, type Random } from "./seeded-random.js";
import { capitalize, commandOutput, identifiers, sourceFile, STYLES } from "./source-and-output.js";

/** Time units: a session's clock counts milliseconds. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Turns a session with rare events (branch, label, rename…) runs at least, so the events fit. */
const EVENT_TURNS = 4;

/**
 * An entry as pi serializes it: `type`, `id`, `parentId`, `timestamp` first (JSON keeps insertion
 * order). While a session is built, `timestamp` (and a message's own `timestamp`) hold milliseconds
 * since the session's start; `serialize` turns them into real times once the start is known.
 */
export type Entry = Record<string, unknown> & { type: string; id: string; timestamp: number | string };

/** A type, not an interface: it has to fit in a `Record<string, unknown>` content list. */
type ToolCall = {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
};

/** What a session builder needs to know up front. */
export interface SessionPlan {
  random: Random;
  project: DemoProject;
  model: DemoModel;
  thinkingLevel: string;
  /** Approximate file size to stop at. */
  targetBytes: number;
  /** How many screenshots the agent reads (each an inline base64 image). */
  screenshots: number;
  /** The first screenshot is a full-page one, over 1 MB on a single line (pi has no limit there). */
  fullPageScreenshot: boolean;
  name?: string;
  renamed?: boolean;
  nameCleared?: boolean;
  modelSwitch: boolean;
  thinkingSwitch: boolean;
  label: boolean;
  branch: "none" | "plain" | "summary";
  userBash: boolean;
  extensionState: boolean;
  aborted: boolean;
  /** Pauses of days between turns, like a session resumed with `pi -c` next week. */
  resumedAfterDays?: number;
}

/** Builds the entries of one session: timestamps relative to its start, ids unique within the file. */
export class SessionBuilder {
  readonly entries: Entry[] = [];
  private readonly ids: Set<string>;
  private leaf: string | null;
  /** Milliseconds since the session's start. */
  clock: number;
  bytes = 0;
  private contextTokens = 0;
  private model: DemoModel;
  private turnCount = 0;
  private readonly readFiles = new Set<string>();
  private readonly modifiedFiles = new Set<string>();
  private screenshotsLeft: number;
  private readonly scale: number;
  private thinkingLevel: string;
  /** The first prompt: what a compaction summary names as the goal. */
  private opening = "";

  constructor(
    private readonly plan: SessionPlan,
    start: { leaf: string | null; ids: Iterable<string>; clock: number },
  ) {
    this.leaf = start.leaf;
    this.ids = new Set(start.ids);
    this.clock = start.clock;
    this.model = plan.model;
    this.thinkingLevel = plan.thinkingLevel;
    this.screenshotsLeft = plan.screenshots;
    // Small sessions read short files and run few tools; long ones the opposite.
    this.scale = Math.min(1, Math.max(0.15, plan.targetBytes / 150_000));
  }

  private get random() {
    return this.plan.random;
  }

  private newId(): string {
    for (;;) {
      const id = this.random.hex(8);
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  private append(type: string, fields: Record<string, unknown>): string {
    const entry: Entry = { type, id: this.newId(), parentId: this.leaf, timestamp: this.clock, ...fields };
    this.entries.push(entry);
    this.leaf = entry.id;
    this.bytes += JSON.stringify(entry).length + 1;
    return entry.id;
  }

  private wait(minMs: number, maxMs: number) {
    this.clock += Math.round(this.random.logBetween(minMs, maxMs));
  }

  modelChange(model: DemoModel) {
    this.model = model;
    this.append("model_change", { provider: model.provider, modelId: model.id });
  }

  thinkingLevelChange(level: string) {
    this.thinkingLevel = level;
    this.append("thinking_level_change", { thinkingLevel: level });
  }

  sessionInfo(name: string) {
    this.append("session_info", { name: name.trim() });
  }

  private user(text: string) {
    this.wait(8_000, 6 * MINUTE);
    this.contextTokens += Math.ceil(text.length / 4);
    this.append("message", {
      message: {
        role: "user",
        content: [{ type: "text", text }],
        timestamp: this.clock - this.random.int(1, 4),
      },
    });
  }

  /** pi-ai's usage block, with the cost it computes from the model's prices. */
  private usage(outputChars: number, newChars: number) {
    const cost = this.model.cost;
    const output = Math.ceil(outputChars / 4) + this.random.int(20, 400);
    // Tokens new since the last call; the rest of the context (system prompt included) is cached.
    const fresh = Math.ceil(newChars / 4);
    const cacheRead = 4_000 + this.contextTokens;
    const openAi = isOpenAi(this.model);
    // Anthropic bills new tokens as cache writes; OpenAI as input, and has no cache writes.
    const input = openAi ? fresh + this.random.int(50, 400) : this.random.int(1, 12);
    const cacheWrite = openAi ? 0 : fresh;
    this.contextTokens += fresh + output;
    const costs = {
      input: (cost.input / 1_000_000) * input,
      output: (cost.output / 1_000_000) * output,
      cacheRead: (cost.cacheRead / 1_000_000) * cacheRead,
      cacheWrite: (cost.cacheWrite / 1_000_000) * cacheWrite,
      total: 0,
    };
    costs.total = costs.input + costs.output + costs.cacheRead + costs.cacheWrite;
    return {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: costs,
    };
  }

  private thinkingBlock(text: string): Record<string, unknown> {
    if (isOpenAi(this.model)) {
      const item = {
        id: `rs_${this.random.hex(48)}`,
        type: "reasoning",
        summary: [{ type: "summary_text", text }],
        encrypted_content: `gAAAAAB${this.random.chars(BASE64_ALPHABET, this.random.int(300, 900))}`,
      };
      return { type: "thinking", thinking: text, thinkingSignature: JSON.stringify(item) };
    }
    return {
      type: "thinking",
      thinking: text,
      thinkingSignature: this.random.chars(BASE64_ALPHABET, this.random.int(200, 700)),
    };
  }

  private textBlock(text: string): Record<string, unknown> {
    if (isOpenAi(this.model))
      return {
        type: "text",
        text,
        textSignature: JSON.stringify({ v: 1, id: `msg_${this.random.hex(48)}` }),
      };
    return { type: "text", text };
  }

  private toolCallId(): string {
    if (isOpenAi(this.model)) return `call_${this.random.chars(BASE62, 24)}|fc_${this.random.hex(48)}`;
    return `toolu_01${this.random.chars(BASE62, 22)}`;
  }

  /** pi's AssistantMessage, keys in the order pi-ai builds it (responseId arrives with the stream). */
  private assistant(
    content: Record<string, unknown>[],
    stopReason: string,
    newChars: number,
    errorMessage?: string,
  ) {
    const requestStart = this.clock + this.random.int(2, 30);
    this.wait(2_500, 70_000);
    const outputChars = JSON.stringify(content).length;
    const message: Record<string, unknown> = {
      role: "assistant",
      content,
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.id,
      usage: this.usage(outputChars, newChars),
      stopReason,
      timestamp: requestStart,
      responseId: isOpenAi(this.model)
        ? `resp_${this.random.hex(48)}`
        : `msg_01${this.random.chars(BASE62, 22)}`,
    };
    if (errorMessage) message.errorMessage = errorMessage;
    return this.append("message", { message });
  }

  private toolResult(
    call: ToolCall,
    content: Record<string, unknown>[],
    isError: boolean,
    details?: unknown,
  ) {
    this.wait(40, call.name === "bash" ? 40_000 : 900);
    // pi leaves `details` undefined for most tools, and JSON drops it; `{}` for errors.
    const message = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content,
      ...(details === undefined ? {} : { details }),
      isError,
      timestamp: this.clock - this.random.int(0, 3),
    };
    this.append("message", { message });
  }

  private thinkingText(): string {
    const { project } = this.plan;
    const file = this.random.pick(project.files);
    const parts = [
      `The user wants this done without changing behaviour for existing data. Let me look at ${file} first.`,
      `${capitalize(this.random.pick(VERBS))}${capitalize(this.random.pick(NOUNS))} is called from two places; I need to check both before changing its signature.`,
      `The failing case is the empty ${this.random.pick(NOUNS)}: the loop never runs, so the ${this.random.pick(NOUNS)} stays undefined.`,
      "I should run the tests before and after, otherwise I can't tell whether I broke something that was already broken.",
      `Maybe the simplest fix is in ${this.random.pick(project.files)}, not here. Let me check how it is used.`,
    ];
    return this.random.sample(parts, this.random.int(1, 4)).join(" ");
  }

  /** The base64 length of the next screenshot: the first one of a full-page session is over 1 MB. */
  private screenshotSize(): number {
    const first = this.screenshotsLeft === this.plan.screenshots;
    const size =
      first && this.plan.fullPageScreenshot
        ? this.random.between(1.15e6, 1.5e6)
        : this.random.logBetween(150e3, 700e3);
    return Math.round(size);
  }

  /** One model call that uses tools, and the tool results that follow it. */
  private toolRound(newChars: number): number {
    const { project } = this.plan;
    const random = this.random;
    const calls: ToolCall[] = [];
    // Base64 length of each screenshot this round reads, by tool call id.
    const screenshotSizes = new Map<string, number>();
    let plannedImageBytes = 0;
    const callCount = random.int(1, this.scale > 0.5 ? 3 : 2);
    for (let i = 0; i < callCount; i++) {
      const id = this.toolCallId();
      let name = random.pick(["read", "read", "read", "bash", "bash", "edit", "write"]);
      let args: Record<string, unknown>;
      const screenshot = this.screenshotsLeft > 0 && random.chance(0.6) ? this.screenshotSize() : 0;
      // Screenshots only while they fit: the image sessions end near their planned size.
      if (screenshot > 0 && this.bytes + plannedImageBytes + screenshot <= this.plan.targetBytes) {
        name = "read";
        args = { path: random.pick(project.screenshots) };
        screenshotSizes.set(id, screenshot);
        plannedImageBytes += screenshot;
        this.screenshotsLeft -= 1;
      } else if (name === "read") args = { path: random.pick(project.files) };
      else if (name === "bash") args = { command: random.pick(project.commands) };
      else if (name === "edit") {
        const style = STYLES[project.language];
        args = {
          path: random.pick(project.files),
          edits: [
            {
              oldText: style.body(identifiers(random), random),
              newText: style.body(identifiers(random), random),
            },
          ],
        };
      } else
        args = {
          path: random.pick(project.files),
          content: sourceFile(random, project.language, random.int(8, 40)),
        };
      calls.push({ type: "toolCall", id, name, arguments: args });
    }
    const content: Record<string, unknown>[] = [];
    if (this.thinkingLevel !== "off" && random.chance(0.7))
      content.push(this.thinkingBlock(this.thinkingText()));
    if (random.chance(0.6)) content.push(this.textBlock(this.openingLine(calls[0]!)));
    content.push(...calls);
    this.assistant(content, "toolUse", newChars);

    let resultChars = 0;
    for (const call of calls) {
      const args = call.arguments;
      const path = String(args.path ?? "");
      const screenshot = screenshotSizes.get(call.id);
      if (screenshot !== undefined) {
        const image = screenshotPng(random, screenshot);
        this.toolResult(
          call,
          [
            { type: "text", text: "Read image file [image/png]" },
            { type: "image", data: image.toString("base64"), mimeType: "image/png" },
          ],
          false,
        );
        resultChars += 6_000; // images cost about this many tokens, whatever their size on disk
      } else if (call.name === "read") {
        this.readFiles.add(path);
        const text = sourceFile(
          random,
          project.language,
          random.int(20, Math.max(30, Math.round(380 * this.scale))),
        );
        this.toolResult(call, [{ type: "text", text }], false);
        resultChars += text.length;
      } else if (call.name === "bash") {
        const command = String(args.command);
        const fail = random.chance(0.2);
        const output = commandOutput(random, project, command, fail, this.scale);
        if (fail) {
          const text = `${output ? `${output}\n\n` : ""}Command exited with code 1`;
          this.toolResult(call, [{ type: "text", text }], true, {});
          resultChars += text.length;
        } else {
          this.toolResult(call, [{ type: "text", text: output || "(no output)" }], false);
          resultChars += output.length;
        }
      } else if (call.name === "edit") {
        this.modifiedFiles.add(path);
        const edits = args.edits as Array<{ oldText: string; newText: string }>;
        const line = random.int(5, 300);
        const diff = edits.map((edit) => `-${line} ${edit.oldText}\n+${line} ${edit.newText}`).join("\n");
        this.toolResult(
          call,
          [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
          false,
          {
            diff,
            firstChangedLine: line,
          },
        );
        resultChars += diff.length;
      } else {
        this.modifiedFiles.add(path);
        const text = `Successfully wrote ${String(args.content).length} bytes to ${path}`;
        this.toolResult(call, [{ type: "text", text }], false);
        resultChars += text.length;
      }
    }
    return resultChars;
  }

  private openingLine(call: ToolCall): string {
    const path = String(call.arguments.path ?? "");
    if (call.name === "read" && path.endsWith(".png")) return `Let me look at the screenshot \`${path}\`.`;
    if (call.name === "read")
      return this.random.pick([`Let me read \`${path}\` first.`, `I'll check how \`${path}\` does it.`]);
    if (call.name === "bash")
      return this.random.pick([
        "Let me run the tests to see where we are.",
        "Checking the current state.",
        "Running it again to confirm.",
      ]);
    return this.random.pick([`Now I'll update \`${path}\`.`, `Making the change in \`${path}\`.`]);
  }

  private summaryText(): string {
    const files = this.random.sample(this.plan.project.files, this.random.int(1, 3));
    const changes = [
      "handle the empty case before the loop",
      "extracted the parsing into its own function so it can be tested",
      "added tests for the edge cases we discussed",
      "replaced the per-item call with one batched call",
      "kept the old behaviour behind the existing option",
      "removed the dead branch that could never run",
    ];
    const lines = files.map((file) => `- \`${file}\`: ${this.random.pick(changes)}`);
    const closing = this.random.pick([
      "All tests pass and the type check is clean.",
      "Tests pass. I did not touch the other call site; it has the same pattern if you want it changed too.",
      "One thing to watch: this changes the output order, which a script might rely on.",
      "The benchmark went from 3.1 s to 0.9 s on my run.",
    ]);
    return `Done. Here's what changed:\n\n${lines.join("\n")}\n\n${closing}`;
  }

  /** A user prompt and everything the agent does until it answers. */
  turn(prompt: string) {
    this.turnCount += 1;
    this.user(prompt);
    let newChars = prompt.length;
    const rounds = this.random.int(1, this.scale > 0.5 ? 6 : 3);
    for (let round = 0; round < rounds; round++) newChars = this.toolRound(newChars);
    const content: Record<string, unknown>[] = [];
    if (this.thinkingLevel !== "off" && this.random.chance(0.4))
      content.push(this.thinkingBlock(this.thinkingText()));
    content.push(this.textBlock(this.summaryText()));
    this.assistant(content, "stop", newChars);
  }

  /** The user pressed Escape while the model was still answering. */
  abortedTurn(prompt: string) {
    this.user(prompt);
    this.assistant([this.textBlock("I'll start by")], "aborted", prompt.length, "Request was aborted");
  }

  /** `!command` typed by the user: a `bashExecution` message (counted as "other" by our scanner). */
  userBash() {
    const command = this.random.pick(this.plan.project.commands);
    this.wait(5_000, 2 * MINUTE);
    const output = commandOutput(this.random, this.plan.project, command, false, this.scale);
    this.append("message", {
      message: {
        role: "bashExecution",
        command,
        output,
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: this.clock - this.random.int(200, 3_000),
      },
    });
  }

  /** An extension's saved state (`pi.appendEntry`): a `custom` entry, keys in pi's order. */
  extensionState() {
    this.wait(500, 5_000);
    const entry: Entry = {
      type: "custom",
      customType: "todo-list",
      data: {
        items: this.random
          .sample(this.plan.project.tasks, 2)
          .map((text, index) => ({ text, done: index === 0 })),
      },
      id: this.newId(),
      parentId: this.leaf,
      timestamp: this.clock,
    };
    this.entries.push(entry);
    this.leaf = entry.id;
    this.bytes += JSON.stringify(entry).length + 1;
  }

  /** `/label` on an earlier entry: it becomes a child of the current leaf, as in pi. */
  label() {
    const targets = this.entries.filter((entry) => entry.type === "message");
    const target = targets[Math.floor(targets.length / 2)];
    if (!target) return;
    this.wait(3_000, 30_000);
    this.append("label", {
      targetId: target.id,
      label: this.random.pick(["checkpoint", "before refactor", "working version"]),
    });
  }

  /** The entries from the first one to the leaf: what pi sends to the model (abandoned branches left out). */
  private currentPath(): Entry[] {
    const byId = new Map(this.entries.map((entry) => [entry.id, entry]));
    const path: Entry[] = [];
    for (let entry = this.leaf === null ? undefined : byId.get(this.leaf); entry;) {
      path.unshift(entry);
      entry = entry.parentId === null ? undefined : byId.get(entry.parentId as string);
    }
    return path;
  }

  /** `/tree` back to an earlier user message: its parent becomes the leaf, optionally with a summary of the abandoned path. */
  branch(withSummary: boolean) {
    const users = this.currentPath().filter(
      (entry) => (entry.message as { role?: string } | undefined)?.role === "user",
    );
    const target = users[users.length - 1];
    if (!target || users.length < 2) return;
    this.leaf = target.parentId as string | null;
    this.wait(10_000, 90_000);
    if (withSummary) {
      this.append("branch_summary", {
        fromId: this.leaf ?? "root",
        summary: `## Goal\nTry a different approach to ${this.random.pick(NOUNS)} handling.\n\n## Progress\n### Done\n- [x] Tried caching the ${this.random.pick(NOUNS)}; made it slower\n\n## Next Steps\n1. Go back and keep the original structure`,
        details: { readFiles: [...this.readFiles], modifiedFiles: [...this.modifiedFiles] },
        fromHook: false,
      });
    }
  }

  /** Auto-compaction: pi summarizes the older part of the context and keeps the recent entries. */
  compaction() {
    // Like pi, keep the most recent messages of the current path (the kept ones must be on it).
    const kept = this.currentPath().filter((entry) => entry.type === "message");
    const firstKept = kept[Math.max(0, kept.length - 12)];
    if (!firstKept) return;
    this.wait(15_000, 60_000);
    const readFiles = [...this.readFiles].filter((file) => !this.modifiedFiles.has(file));
    const modifiedFiles = [...this.modifiedFiles];
    const files = `${readFiles.length > 0 ? `\n\n<read-files>\n${readFiles.join("\n")}\n</read-files>` : ""}${
      modifiedFiles.length > 0 ? `\n\n<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>` : ""
    }`;
    const summary = [
      "## Goal",
      this.opening,
      "",
      "## Constraints & Preferences",
      "- Keep the public API unchanged",
      "- Tests must pass before committing",
      "",
      "## Progress",
      "### Done",
      ...modifiedFiles.map((file) => `- [x] Updated \`${file}\``),
      "",
      "### In Progress",
      `- [ ] ${capitalize(this.random.pick(VERBS))} the remaining ${this.random.pick(NOUNS)} cases`,
      "",
      "## Next Steps",
      "1. Run the full test suite",
      "2. Update the README",
    ].join("\n");
    this.append("compaction", {
      summary: summary + files,
      firstKeptEntryId: firstKept.id,
      tokensBefore: 150_000 + this.random.int(0, 35_000),
      details: { readFiles, modifiedFiles },
      fromHook: false,
    });
    this.contextTokens = Math.round(this.contextTokens * 0.15);
  }

  /**
   * Turns until the file reaches its planned size. Rare events happen at fixed turns, and a session
   * that has any runs at least `EVENT_TURNS` turns, so a small session still gets them.
   */
  run(opening: string) {
    const plan = this.plan;
    const random = this.random;
    const hasEvents =
      plan.renamed ||
      plan.nameCleared ||
      plan.modelSwitch ||
      plan.thinkingSwitch ||
      plan.label ||
      plan.userBash;
    const minTurns = hasEvents || plan.branch !== "none" || plan.aborted ? EVENT_TURNS : 1;
    let compacted = false;
    this.opening = opening;
    this.turn(opening);
    if (plan.name) this.sessionInfo(plan.name);
    if (plan.extensionState) this.extensionState();
    while (this.bytes < plan.targetBytes || this.turnCount < minTurns) {
      const next = this.turnCount + 1;
      if (plan.resumedAfterDays && next === 3)
        this.clock += plan.resumedAfterDays * DAY + random.int(0, 8) * HOUR;
      else if (random.chance(0.08)) this.clock += random.int(1, 5) * HOUR; // lunch, a meeting
      if (plan.aborted && next === 2) this.abortedTurn(random.pick(FOLLOW_UPS));
      if (plan.modelSwitch && next === 2) {
        this.wait(2_000, 20_000);
        this.modelChange(this.model === OPUS ? SONNET : OPUS);
      }
      if (plan.thinkingSwitch && next === 3) {
        this.wait(2_000, 20_000);
        this.thinkingLevelChange(this.thinkingLevel === "high" ? "medium" : "high");
      }
      if (plan.userBash && next === 3) this.userBash();
      if (plan.branch !== "none" && next === 4) this.branch(plan.branch === "summary");
      if (plan.targetBytes >= 300_000 && !compacted && this.bytes > plan.targetBytes * 0.6) {
        compacted = true;
        this.compaction();
      }
      this.turn(random.pick(FOLLOW_UPS));
      if (plan.label && this.turnCount === 2) this.label();
      if (plan.renamed && this.turnCount === 3) this.sessionInfo(`${plan.name ?? "Session"}, part 2`);
      if (plan.nameCleared && this.turnCount === 3) this.sessionInfo("");
    }
  }
}
