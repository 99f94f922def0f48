// A session as pi's own picker names it, the same on every page: its title (a name in bold, a first
// message as it is, a time muted), the namespace's folder beside it where the page has no namespace
// column, and the file name last, small and muted — `<time>_<uuid>.jsonl` tells a person little.
import { fileName, namespaceBase, sessionTitle, type Titled } from "../../../shared/session-title.js";

export function SessionName({
  session,
  title,
  namespace,
  file = true,
}: {
  session: Titled & { path: string };
  /** A title recorded when the session was moved (a trash entry, an audit item): shown as it is. */
  title?: string | undefined;
  /** Shown as its folder's name after the title. */
  namespace?: string | undefined;
  /** Show the file name after the title (else it is only in the tooltip the caller gives). */
  file?: boolean;
}) {
  const shown = title !== undefined ? { title, source: "recorded" } : sessionTitle(session);
  const name = fileName(session.path);
  return (
    <span class="session-name">
      <span class={`session-title ${shown.source}`} data-testid="session-title" data-source={shown.source}>
        {shown.title}
      </span>
      {namespace !== undefined && <span class="session-ns"> · {namespaceBase(namespace)}</span>}
      {/* An old entry without a title is shown by its file name: once is enough. */}
      {file && shown.title !== name && <span class="session-file"> {name}</span>}
    </span>
  );
}
