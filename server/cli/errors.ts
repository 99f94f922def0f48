// Errors the CLI turns into one clear line and exit status 2.
export class UsageError extends Error {
  override name = "UsageError";
}
