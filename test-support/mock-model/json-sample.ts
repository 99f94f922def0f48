// The smallest value that fits a JSON schema, for a client that asks the model a structured side
// question and parses the answer (Gemini CLI's router wants `complexity_score`, its next-speaker
// check `next_speaker`). Enough of JSON Schema and of Gemini's own schema dialect (upper-case
// `type`s such as `OBJECT`, `INTEGER`) for those: objects, arrays, enums, strings, numbers.

interface Schema {
  type?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
  minimum?: number;
  minItems?: number;
  anyOf?: unknown[];
  oneOf?: unknown[];
}

/**
 * A value of `schema`: every property of an object (required or not), an enum's first value (a
 * next-speaker check then hands the turn back to the user), a number's minimum or else 1 (a
 * complexity score is 1 to 100), `minItems` copies of an array's item, "mock" for a string.
 */
export function sampleOf(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const s = schema as Schema;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const alternative = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (alternative !== undefined) return sampleOf(alternative);
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? "object")).toLowerCase();
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]),
      );
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => sampleOf(s.items));
    case "integer":
      return Math.ceil(s.minimum ?? 1);
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return "mock";
  }
}
