// Errors the CLI turns into one clear line and exit status 2.
import { UserError } from "../errors.js";

/** Bad arguments. */
export class UsageError extends UserError {
  override name = "UsageError";
}
