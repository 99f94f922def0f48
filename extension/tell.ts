// Telling the user something: in pi's UI, or on stderr when there is none (print and JSON modes,
// where stdout belongs to pi's own output). Everything shown — notices and dialogs — is made
// visible (shared/visible-text.ts): a session's name, cwd or file name must not act on pi's terminal.
import type { ExtensionContext, ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { visible, visibleLines } from "../shared/visible-text.js";

export function tell(ctx: ExtensionContext, text: string, level: "info" | "warning" | "error" = "info") {
  const shown = visibleLines(text);
  if (ctx.hasUI) ctx.ui.notify(shown, level);
  else process.stderr.write(`${shown}\n`);
}

/** The dialogs the commands use. */
export type Dialogs = Pick<ExtensionUIContext, "select" | "input" | "confirm" | "notify">;

/**
 * pi's dialogs with every text made visible. A select's options are one line each, so they are
 * made wholly visible (a line feed would read as another option); its answer is the option as given.
 */
export function visibleUi(ui: Dialogs): Dialogs {
  return {
    async select(title, options, opts) {
      const shown = options.map(visible);
      const answer = await ui.select(visibleLines(title), shown, opts);
      return answer === undefined ? undefined : (options[shown.indexOf(answer)] ?? answer);
    },
    input: (title, placeholder, opts) =>
      ui.input(visibleLines(title), placeholder === undefined ? undefined : visible(placeholder), opts),
    confirm: (title, message, opts) => ui.confirm(visibleLines(title), visibleLines(message), opts),
    notify: (message, type) => ui.notify(visibleLines(message), type),
  };
}
