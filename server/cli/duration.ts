// A flag's duration (--older-than, --since): the shared syntax, its error naming the flag.
import { parseDuration as parse } from "../../shared/duration.js";
import { UsageError } from "./errors.js";

export function parseDuration(text: string, flag: string): number {
  const result = parse(text);
  if (!result.ok) throw new UsageError(`${flag}: ${result.message}`);
  return result.ms;
}
