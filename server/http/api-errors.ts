// Typed errors of the dashboard API. Each carries its status and code (see ../errors.ts); app.ts's
// onError turns every one into its answer in one place.
import type { ConfigProblem } from "../../shared/config.js";
import { NotFoundError, UserError } from "../errors.js";

export { ReadOnlyError } from "../config/config-file.js";

/** Well-formed ids that name no session of the store: 404, and nothing changed. */
export class UnknownIdsError extends NotFoundError {
  constructor(readonly ids: readonly string[]) {
    super(
      `no session ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` and ${ids.length - 3} more` : ""} in the store`,
    );
  }
  override name = "UnknownIdsError";
}

/** A proposed or saved config that does not validate: 400 with each problem, and nothing written. */
export class InvalidConfigError extends UserError {
  constructor(
    message: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(message, { status: 400, apiCode: "invalid_config" });
  }
  override name = "InvalidConfigError";
  override details() {
    return { problems: this.problems };
  }
}
