// pi processes running without session-retention's extension: their sessions are kept by a rougher
// rule than the extension's marker (those of their folder written since they started), and loading
// the extension makes it exact. Said on the overview, beside what agents' own cleanup does.
import { describePiWithoutExtension, type PiWithoutExtension } from "../../../shared/unmarked-pi.js";

export function PiWithoutExtensionNotice({ found }: { found: readonly PiWithoutExtension[] }) {
  if (found.length === 0) return null;
  return (
    <div class="banner info" role="status" data-testid="pi-without-extension">
      {found.map((pi) => (
        <p key={pi.pid} data-pid={pi.pid}>
          {describePiWithoutExtension(pi)}
        </p>
      ))}
    </div>
  );
}
