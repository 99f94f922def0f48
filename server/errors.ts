// Errors whose message is the whole story for the user: the CLI prints the message as one line and
// exits 2, the HTTP layer answers with it. Anything else is a bug and keeps its stack.
export class UserError extends Error {
  override name = "UserError";
}
