// pi's real runtime for extension tests: its resource loader finds the extension through our
// package.json's "pi" manifest (as `pi install` would), its AgentSession emits the events and
// runs the commands, and a scripted UI answers the dialogs. No model is called: ordinary input
// that gets past the extension is caught by a recorder extension loaded after it.
import {
  type AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  type CreateAgentSessionRuntimeFactory,
  createEventBus,
  type ExtensionFactory,
  type ExtensionUIContext,
  SessionManager,
} from "@mariozechner/pi-coding-agent";
import { fileURLToPath } from "node:url";
import type { Look } from "../extension/look.js";

const checkout = fileURLToPath(new URL("..", import.meta.url));

/** Answers for the dialogs, in order; each is checked against the dialog's kind. */
export type Answer =
  | { select: string | ((options: string[], title: string) => string | undefined) }
  | { input: string | undefined }
  | { confirm: boolean };

export interface ScriptedUi {
  ui: ExtensionUIContext;
  answers: Answer[];
  notes: Array<{ text: string; level: string }>;
  status: Map<string, string | undefined>;
  /** Every dialog shown: its kind, title and options. */
  dialogs: Array<{ kind: string; title: string; options?: string[] }>;
}

export function scriptedUi(): ScriptedUi {
  const answers: Answer[] = [];
  const notes: ScriptedUi["notes"] = [];
  const status = new Map<string, string | undefined>();
  const dialogs: ScriptedUi["dialogs"] = [];
  const next = (kind: "select" | "input" | "confirm") => {
    const answer = answers.shift();
    if (!answer || !(kind in answer))
      throw new Error(`unexpected ${kind} dialog (next scripted answer: ${JSON.stringify(answer)})`);
    return answer;
  };
  const ignore = () => undefined;
  const ui = {
    select: async (title: string, options: string[]) => {
      dialogs.push({ kind: "select", title, options });
      const { select } = next("select") as {
        select: string | ((o: string[], t: string) => string | undefined);
      };
      return typeof select === "function" ? select(options, title) : select;
    },
    input: async (title: string) => {
      dialogs.push({ kind: "input", title });
      return (next("input") as { input: string | undefined }).input;
    },
    confirm: async (title: string) => {
      dialogs.push({ kind: "confirm", title });
      return (next("confirm") as { confirm: boolean }).confirm;
    },
    notify: (text: string, level = "info") => notes.push({ text, level }),
    setStatus: (key: string, text: string | undefined) => status.set(key, text),
    onTerminalInput: () => ignore,
    setWorkingMessage: ignore,
    setWorkingVisible: ignore,
    setWorkingIndicator: ignore,
    setHiddenThinkingLabel: ignore,
    setWidget: ignore,
    setFooter: ignore,
    setHeader: ignore,
    setTitle: ignore,
    custom: async () => undefined,
    pasteToEditor: ignore,
    setEditorText: ignore,
    getEditorText: () => "",
    editor: async () => undefined,
    addAutocompleteProvider: ignore,
    setEditorComponent: ignore,
    get theme() {
      throw new Error("no theme in tests");
    },
  } as unknown as ExtensionUIContext;
  return { ui, answers, notes, status, dialogs };
}

export interface PiUnderTest {
  /** pi's runtime: `runtime.session` is the current session; `newSession()` replaces it. */
  runtime: AgentSessionRuntime;
  /** Ordinary input that reached the model's side (i.e. was not blocked). */
  passed: string[];
  /** Resolves with the next look the extension reports. */
  nextLook: () => Promise<Look>;
  looks: Look[];
}

/**
 * Starts pi's runtime on `sessionManager` with the extension loaded from this package (through its
 * "pi" manifest), in the agent dir the environment names (the test's own), binding `ui` — or none,
 * which is pi's print-mode behaviour. Resolves once the extension's first look is in, or at once
 * with `waitForLook: false` (for a look that cannot be made).
 */
export async function startPi(options: {
  cwd: string;
  sessionManager: SessionManager;
  ui?: ExtensionUIContext;
  /** Another extension, loaded after ours (it sees the state ours leaves at each event). */
  extra?: ExtensionFactory;
  waitForLook?: boolean;
  /** The package whose "pi" manifest names the extension: this checkout, or an installed copy. */
  packageRoot?: string;
}): Promise<PiUnderTest> {
  const agentDir = process.env.PI_CODING_AGENT_DIR!;
  const eventBus = createEventBus();
  const passed: string[] = [];
  const looks: Look[] = [];
  const waiting: Array<(look: Look) => void> = [];
  eventBus.on("session-retention:looked", (data) => {
    looks.push(data as Look);
    waiting.shift()?.(data as Look);
  });
  const createRuntime: CreateAgentSessionRuntimeFactory = async ({
    cwd,
    sessionManager,
    sessionStartEvent,
  }) => {
    const services = await createAgentSessionServices({
      cwd,
      agentDir,
      resourceLoaderOptions: {
        eventBus,
        additionalExtensionPaths: [options.packageRoot ?? checkout],
        extensionFactories: [
          (pi) =>
            pi.on("input", (event) => {
              passed.push(event.text);
              return { action: "handled" };
            }),
          ...(options.extra ? [options.extra] : []),
        ],
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
      },
    });
    return {
      ...(await createAgentSessionFromServices({
        services,
        sessionManager,
        ...(sessionStartEvent ? { sessionStartEvent } : {}),
      })),
      services,
      diagnostics: services.diagnostics,
    };
  };
  const nextLook = () => new Promise<Look>((resolve) => waiting.push(resolve));
  const bindings = options.ui ? { uiContext: options.ui } : {};
  const runtime = await createAgentSessionRuntime(createRuntime, {
    cwd: options.cwd,
    agentDir,
    sessionManager: options.sessionManager,
  });
  runtime.setRebindSession((session) => session.bindExtensions(bindings));
  const first = nextLook();
  await runtime.session.bindExtensions(bindings);
  if (options.waitForLook !== false) await first;
  return { runtime, passed, nextLook, looks };
}

export { SessionManager };
