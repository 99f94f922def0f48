// Errors the CLI turns into one clear line and exit status 2.
import { UserError } from "../errors.js";

/** Bad arguments. */
export class UsageError extends UserError {
  override name = "UsageError";
}

/** Ctrl-C or Ctrl-D at a prompt: the user's "no", said before anything was done. */
export class CancelledError extends UserError {
  override name = "CancelledError";
}
