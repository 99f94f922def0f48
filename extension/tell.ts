// Telling the user something: in pi's UI, or on stderr when there is none (print and JSON modes,
// where stdout belongs to pi's own output).
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

export function tell(ctx: ExtensionContext, text: string, level: "info" | "warning" | "error" = "info") {
  if (ctx.hasUI) ctx.ui.notify(text, level);
  else process.stderr.write(`${text}\n`);
}
