// Long work on the server's one thread without holding up the other requests: a computation in
// steps (shared/steps.ts) runs a step at a time, and a large answer goes out in pieces, the event
// loop free between them. A plan of 100,000 sessions takes seconds to make and is ~60 MB of JSON;
// made and sent in one go, every other request (the page's summary, a stop) waited for all of it.
import type { Steps } from "../../shared/steps.js";

/** Lets everything that is waiting on the event loop (I/O, other requests) run first. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `steps` to the end, letting other work in at every pause. */
export async function runPaced<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await breathe();
  }
}

/** Items of a long list written as one piece: ~0.3 MB of a plan's candidates, a few ms of work. */
const PER_PIECE = 500;

/**
 * `value` as JSON, in pieces: one with every field but its long lists (the totals, up front), then
 * each list a few hundred items at a time, each slice passed through its list's `check` (a schema's
 * parse) as it is written. Joined, the pieces parse to what `JSON.stringify` would give, the lists'
 * fields last.
 */
export function* jsonPieces(
  value: Readonly<Record<string, unknown>>,
  lists: Readonly<Record<string, (slice: readonly unknown[]) => readonly unknown[]>>,
  perPiece = PER_PIECE,
): Generator<string, void, void> {
  const head = JSON.stringify(Object.fromEntries(Object.entries(value).filter(([k]) => !(k in lists))));
  const present = Object.keys(lists).filter((key) => value[key] !== undefined);
  if (present.length === 0) {
    yield head;
    return;
  }
  yield head === "{}" ? "{" : `${head.slice(0, -1)},`;
  for (const [i, key] of present.entries()) {
    const list = value[key] as readonly unknown[];
    yield `${JSON.stringify(key)}:[`;
    for (let start = 0; start < list.length; start += perPiece) {
      const piece = lists[key]!(list.slice(start, start + perPiece))
        .map((item) => JSON.stringify(item) ?? "null")
        .join(",");
      yield start === 0 ? piece : `,${piece}`;
    }
    yield i === present.length - 1 ? "]}" : "],";
  }
}

/** A response body of `pieces`, each made only when the client is ready for it, with a pause before. */
export function pacedBody(pieces: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      await breathe();
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}
