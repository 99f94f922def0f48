// The look's notes as one line that opens (a native <details>: a keyboard stop, Enter or Space
// opens it, and a screen reader says whether it is open). Five full-width banners of things left
// alone pushed the overview's answer below the fold; folded, they cost one line on every page.
import type { SummaryResponse } from "../../../shared/api.js";
import { foldedNotes } from "./notices.js";

export function Notices({ look }: { look: Pick<SummaryResponse, "findings" | "piWithoutExtension"> }) {
  const folded = foldedNotes(look);
  if (!folded) return null;
  return (
    <details class="notices" data-testid="notices">
      <summary data-testid="notices-summary">{folded.summary}</summary>
      <ul>
        {folded.notes.map((note) => (
          <li key={note.key} data-testid={note.kind}>
            {note.text}
          </li>
        ))}
      </ul>
    </details>
  );
}
