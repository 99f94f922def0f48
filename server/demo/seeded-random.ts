// Seeded randomness for generated stores (the demo store, the benchmark's stores): one seed always
// gives the same bytes.

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** mulberry32: tiny and fast, and plenty for made-up data. Not for anything secret. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.u32() / 4_294_967_296;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }

  /** 8 hex digits from one draw. */
  hex8(): string {
    return this.u32().toString(16).padStart(8, "0");
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** Log-uniform: as many values in 5–10 as in 100–200, the way session sizes spread in real stores. */
  logBetween(min: number, max: number): number {
    return Math.exp(this.between(Math.log(min), Math.log(max)));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A few distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0)
      chosen.push(pool.splice(this.int(0, pool.length - 1), 1)[0]!);
    return chosen;
  }

  chars(alphabet: string, length: number): string {
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(this.next() * alphabet.length)];
    return text;
  }

  hex(length: number): string {
    return this.chars("0123456789abcdef", length);
  }

  /** An independent stream, so one session's content does not shift every later session's. */
  child(): Random {
    return new Random(Math.floor(this.next() * 4_294_967_296));
  }
}

/** pi's session ids are UUIDv7: 48 bits of milliseconds, then random bits. */
export function uuidV7(random: Random, ms: number): string {
  const time = ms.toString(16).padStart(12, "0");
  const variant = "89ab"[random.int(0, 3)];
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.hex(3)}-${variant}${random.hex(3)}-${random.hex(12)}`;
}
