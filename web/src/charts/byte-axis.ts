// A byte axis people can read: steps of 1, 2 or 5 of a binary unit (512 KiB, 5 MiB, 20 GiB) and
// labels without trailing zeros — not chart.js's decimal steps (5,000,000 bytes), which in binary
// units read 4.77 and 9.54 MiB.
import { formatBytes } from "../../../shared/format.js";

const KIB = 1024;

/**
 * The step for an axis from 0 to `max` bytes with about `ticks` steps: 1, 2 or 5 times a power of
 * ten of the binary unit `max` is counted in — or, below one of that unit, a power of two of the
 * unit below (256 KiB, 512 KiB).
 */
export function byteStep(max: number, ticks = 5): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const unit = KIB ** Math.max(0, Math.floor(Math.log(max) / Math.log(KIB)));
  const raw = max / ticks / unit;
  if (raw < 1 && unit > 1) {
    // Below one unit: a power of two of the unit below is round (512 KiB), a tenth of one is not.
    return 2 ** Math.ceil(Math.log2(raw * KIB)) * (unit / KIB);
  }
  const pow = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const nice = [1, 2, 5, 10].map((m) => m * pow).find((step) => step >= raw)!;
  return nice * unit;
}

/** A tick's label: formatBytes without trailing zeros ("5 MiB", "2.5 GiB"). */
export const axisBytes = (bytes: number): string =>
  formatBytes(bytes)
    .replace(/(\.\d*?)0+ /, "$1 ")
    .replace(/\. /, " ");
