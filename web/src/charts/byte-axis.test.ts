import { describe, expect, it } from "vitest";
import { axisBytes, byteStep } from "./byte-axis.js";

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

describe("a byte axis", () => {
  it("steps by 1, 2 or 5 of a binary unit, about five to the top", () => {
    expect(byteStep(28.6 * MIB)).toBe(10 * MIB);
    expect(byteStep(19 * MIB)).toBe(5 * MIB);
    expect(byteStep(9 * MIB)).toBe(2 * MIB);
    expect(byteStep(4.5 * MIB)).toBe(1 * MIB);
    expect(byteStep(18.4 * GIB)).toBe(5 * GIB);
    expect(byteStep(900 * GIB)).toBe(200 * GIB);
  });

  it("below one of its unit, a power of two of the unit below", () => {
    expect(byteStep(2 * MIB)).toBe(512 * 1024);
    expect(byteStep(1.2 * GIB)).toBe(256 * MIB);
    expect(byteStep(3000)).toBe(1024);
  });

  it("every step is whole in its unit, so no label reads 4.77 or 9.54", () => {
    for (let max = 1000; max < 2 ** 50; max *= 1.37) {
      const step = byteStep(max);
      const ticks = Math.ceil(max / step);
      expect(ticks, `max ${max}`).toBeGreaterThanOrEqual(2);
      expect(ticks, `max ${max}`).toBeLessThanOrEqual(10);
      for (let i = 1; i <= ticks; i++)
        expect(axisBytes(i * step), `max ${max}`).toMatch(/^(\d+|\d\.5) [KMGT]?i?B$/);
    }
  });

  it("labels without trailing zeros", () => {
    expect(axisBytes(5 * MIB)).toBe("5 MiB");
    expect(axisBytes(10 * MIB)).toBe("10 MiB");
    expect(axisBytes(2.5 * GIB)).toBe("2.5 GiB");
    expect(axisBytes(0)).toBe("0 B");
    expect(axisBytes(512 * 1024)).toBe("512 KiB");
    expect(axisBytes(100 * MIB)).toBe("100 MiB");
    expect(axisBytes(200 * GIB)).toBe("200 GiB");
    expect(axisBytes(1.5 * MIB)).toBe("1.5 MiB");
  });
});
