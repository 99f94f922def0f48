// Typed errors of the dashboard API, turned into statuses in one place (app.ts's onError).
import { UserError } from "../errors.js";

/** Well-formed ids that name no session of the store: 404, and nothing changed. */
export class UnknownIdsError extends UserError {
  constructor(readonly ids: readonly string[]) {
    super(
      `no session ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` and ${ids.length - 3} more` : ""} in the store`,
    );
  }
  override name = "UnknownIdsError";
}

/** The config is invalid: the program is read-only until it is fixed (409). */
export class ReadOnlyError extends UserError {
  constructor(configPath: string) {
    super(`read-only: ${configPath} is invalid, so nothing can be deleted until it is fixed`);
  }
  override name = "ReadOnlyError";
}
