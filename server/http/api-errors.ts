// Typed errors of the dashboard API, turned into statuses in one place (app.ts's onError).
import { UserError } from "../errors.js";

export { ReadOnlyError } from "../config/config-file.js";

/** Well-formed ids that name no session of the store: 404, and nothing changed. */
export class UnknownIdsError extends UserError {
  constructor(readonly ids: readonly string[]) {
    super(
      `no session ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` and ${ids.length - 3} more` : ""} in the store`,
    );
  }
  override name = "UnknownIdsError";
}
