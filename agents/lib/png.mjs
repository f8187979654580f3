/**
 * The image of the task: a 3×2 PNG made here (no image library), and a reader of PNG headers so an
 * upstream can tell the picture it received is this one (an agent may re-encode it, never resize it).
 */
import { deflateSync } from "node:zlib";

export const IMAGE_WIDTH = 3;
export const IMAGE_HEIGHT = 2;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** @param {Buffer} bytes */
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** @param {string} type @param {Buffer} data */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 3×2 RGB PNG: red, green, blue over white, grey, black. */
export function makePng() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(IMAGE_WIDTH, 0);
  header.writeUInt32BE(IMAGE_HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rows = [
    [0, 255, 0, 0, 0, 255, 0, 0, 0, 255],
    [0, 255, 255, 255, 128, 128, 128, 0, 0, 0],
  ];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows.flat()))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * What an image part's base64 data is: `{ format, width, height }` for a PNG, `{ format }` for
 * another image format, undefined for bytes that are no image.
 * @param {string} base64
 */
export function describeImage(base64) {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { format: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { format: "jpeg" };
  if (bytes.subarray(8, 12).toString("latin1") === "WEBP") return { format: "webp" };
  return undefined;
}

/** Whether base64 data is the task's picture (a PNG of its size, or another format: re-encoded). */
export function isTaskImage(base64) {
  const image = describeImage(base64);
  if (image === undefined) return false;
  return image.format !== "png" || (image.width === IMAGE_WIDTH && image.height === IMAGE_HEIGHT);
}
