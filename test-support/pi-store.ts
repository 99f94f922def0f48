// Realistic pi session stores for tests, written by pi's own SessionManager (a devDependency), so
// what we scan is exactly what pi writes.
import { mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";

/** pi's folder name for a cwd: leading slash dropped, `/ \ :` → `-`, wrapped in `--`. */
export const piFolder = (cwd: string) => `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;

export const userMessage = (text: string) => ({
  role: "user" as const,
  content: text,
  timestamp: Date.now(),
});

/** A user's message as pi appends it to a session file now (its own line: a new entry, no parent). */
export const messageLine = (text: string) =>
  `${JSON.stringify({
    type: "message",
    id: Math.random().toString(16).slice(2, 10),
    parentId: null,
    timestamp: new Date().toISOString(),
    message: userMessage(text),
  })}\n`;

export const assistantMessage = (text: string) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text }],
  api: "anthropic-messages" as const,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: {
    input: 100,
    output: 50,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 150,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop" as const,
  timestamp: Date.now(),
});

export const toolResultMessage = (text: string, imageBase64?: string) => ({
  role: "toolResult" as const,
  toolCallId: "call_1",
  toolName: "read",
  content: [
    { type: "text" as const, text },
    ...(imageBase64 ? [{ type: "image" as const, data: imageBase64, mimeType: "image/png" }] : []),
  ],
  isError: false,
  timestamp: Date.now(),
});

/** A new session in `root` (pi's default layout: one folder per cwd) with `turns` exchanges. */
export function writeSession(root: string, cwd: string, turns: number, options: { name?: string } = {}) {
  const folder = join(root, piFolder(cwd));
  mkdirSync(folder, { recursive: true });
  const manager = SessionManager.create(cwd, folder);
  for (let t = 0; t < turns; t++) {
    manager.appendMessage(userMessage(`question ${t} in ${cwd}`));
    manager.appendMessage(assistantMessage(`answer ${t} `.repeat(10)));
  }
  if (options.name) manager.appendSessionInfo(options.name);
  return manager;
}

/** Sets a file's modification (and access) time. */
export function setModified(path: string, when: Date) {
  utimesSync(path, when, when);
}
