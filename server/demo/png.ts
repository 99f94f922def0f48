// Small valid PNG "screenshots", written without zlib so the bytes never depend on zlib's version.
import type { Random } from "./seeded-random.js";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of "stored" (uncompressed) deflate blocks: valid, and the size we ask for. */
function storedZlib(raw: Buffer): Buffer {
  const blockSize = 65535;
  const blocks = Math.max(1, Math.ceil(raw.length / blockSize));
  const out = Buffer.alloc(2 + raw.length + blocks * 5 + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * blockSize;
    const length = Math.min(blockSize, raw.length - start);
    out[at] = block === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    raw.copy(out, at + 5, start, start + length);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(raw), at);
  return out;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

type Rgb = readonly [number, number, number];

/** A wireframe "screenshot" (top bar, sidebar, cards, text lines) whose base64 is about `base64Bytes` long. */
export function screenshotPng(random: Random, base64Bytes: number): Buffer {
  const pixels = Math.floor((base64Bytes * 3) / 4 / 3);
  const height = Math.max(120, Math.round(Math.sqrt(pixels / 1.6)));
  const width = Math.max(192, Math.round(height * 1.6));
  const stride = width * 3 + 1; // each row starts with its filter byte (0: none)
  const raw = Buffer.alloc(stride * height);
  const fill = (x: number, y: number, w: number, h: number, [r, g, b]: Rgb) => {
    const x1 = Math.min(width, x + w);
    const y1 = Math.min(height, y + h);
    for (let row = Math.max(0, y); row < y1; row++) {
      let at = row * stride + 1 + Math.max(0, x) * 3;
      for (let column = Math.max(0, x); column < x1; column++) {
        raw[at++] = r;
        raw[at++] = g;
        raw[at++] = b;
      }
    }
  };
  const accent = random.pick<Rgb>([
    [37, 99, 235],
    [22, 163, 74],
    [219, 39, 119],
    [234, 88, 12],
    [79, 70, 229],
  ]);
  fill(0, 0, width, height, [245, 246, 248]);
  fill(0, 0, width, 44, accent);
  const sidebar = Math.round(width * 0.18);
  fill(0, 44, sidebar, height - 44, [229, 231, 235]);
  for (let y = 64; y < height - 20; y += 28) fill(16, y, sidebar - random.int(32, 60), 10, [156, 163, 175]);
  let y = 64;
  while (y < height - 60) {
    const cardHeight = random.int(60, 160);
    fill(sidebar + 24, y, width - sidebar - 48, cardHeight, [255, 255, 255]);
    fill(sidebar + 24, y, 6, cardHeight, accent);
    for (let line = y + 16; line < y + cardHeight - 12; line += 18)
      fill(sidebar + 44, line, random.int(80, width - sidebar - 100), 8, [75, 85, 99]);
    y += cardHeight + 20;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", storedZlib(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
