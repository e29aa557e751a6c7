// Container encoders for the Windows .ico and macOS .icns icon files.
//
// electron-builder can derive both from a 1024 px PNG, but only with an icon tool it
// downloads at build time; writing the two small container formats here keeps packing
// offline and reproducible.

/** One rendered square image: its edge in pixels, its PNG bytes, and its straight-alpha RGBA pixels. */
export interface RenderedIcon {
  size: number;
  png: Buffer;
  rgba: Buffer;
}

const ICO_HEADER_BYTES = 6;
const ICO_ENTRY_BYTES = 16;
const BITMAPINFOHEADER_BYTES = 40;

/**
 * A Windows icon file. Sizes below 256 are stored as 32-bit bitmaps and 256 as PNG,
 * the layout Windows' own icons use: PNG entries below 256 px are not understood by
 * every tool that reads icons (resource compilers, some installer builders).
 */
export function encodeIco(images: readonly RenderedIcon[]): Buffer {
  const payloads = images.map((image) => (image.size >= 256 ? image.png : bitmapEntry(image)));

  const header = Buffer.alloc(ICO_HEADER_BYTES);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type 1 = icon
  header.writeUInt16LE(images.length, 4);

  const directory = Buffer.alloc(ICO_ENTRY_BYTES * images.length);
  let offset = ICO_HEADER_BYTES + directory.length;
  images.forEach((image, i) => {
    const payload = payloads[i]!;
    const at = i * ICO_ENTRY_BYTES;
    // A width or height of 256 does not fit in a byte; the format spells it 0.
    directory.writeUInt8(image.size >= 256 ? 0 : image.size, at);
    directory.writeUInt8(image.size >= 256 ? 0 : image.size, at + 1);
    directory.writeUInt8(0, at + 2); // no palette
    directory.writeUInt8(0, at + 3); // reserved
    directory.writeUInt16LE(1, at + 4); // colour planes
    directory.writeUInt16LE(32, at + 6); // bits per pixel
    directory.writeUInt32LE(payload.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += payload.length;
  });

  return Buffer.concat([header, directory, ...payloads]);
}

/** A BITMAPINFOHEADER, bottom-up BGRA rows, then the 1-bit AND mask that 32-bit icons still carry. */
function bitmapEntry({ size, rgba }: RenderedIcon): Buffer {
  const maskRowBytes = Math.ceil(size / 32) * 4;
  const info = Buffer.alloc(BITMAPINFOHEADER_BYTES);
  info.writeUInt32LE(BITMAPINFOHEADER_BYTES, 0);
  info.writeInt32LE(size, 4);
  info.writeInt32LE(size * 2, 8); // colour rows plus mask rows, as icons require
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(0, 16); // BI_RGB
  info.writeUInt32LE(size * size * 4 + maskRowBytes * size, 20);

  const pixels = Buffer.alloc(size * size * 4);
  const mask = Buffer.alloc(maskRowBytes * size); // all zero: alpha decides, nothing masked out
  for (let y = 0; y < size; y++) {
    const targetRow = size - 1 - y; // bitmaps are stored bottom row first
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = (targetRow * size + x) * 4;
      pixels[to] = rgba[from + 2]!;
      pixels[to + 1] = rgba[from + 1]!;
      pixels[to + 2] = rgba[from]!;
      pixels[to + 3] = rgba[from + 3]!;
    }
  }
  return Buffer.concat([info, pixels, mask]);
}

/**
 * macOS icon types that hold PNG data, by pixel edge. A 32 px image serves both as
 * 32x32 and as 16x16@2x, and so on up the ladder; iconutil writes the same pairs.
 */
export const ICNS_TYPES_BY_SIZE: ReadonlyMap<number, readonly string[]> = new Map([
  [16, ['icp4']],
  [32, ['icp5', 'ic11']],
  [64, ['icp6', 'ic12']],
  [128, ['ic07']],
  [256, ['ic08', 'ic13']],
  [512, ['ic09', 'ic14']],
  [1024, ['ic10']],
]);

/** A macOS .icns file: the 'icns' magic and total length, then (type, length, PNG) chunks. */
export function encodeIcns(images: readonly RenderedIcon[]): Buffer {
  const chunks: Buffer[] = [];
  for (const image of images) {
    const types = ICNS_TYPES_BY_SIZE.get(image.size);
    if (!types) throw new Error(`No .icns slot takes a ${image.size} px image`);
    for (const type of types) {
      const head = Buffer.alloc(8);
      head.write(type, 0, 'latin1');
      head.writeUInt32BE(8 + image.png.length, 4);
      chunks.push(head, image.png);
    }
  }
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + body.length, 4);
  return Buffer.concat([head, body]);
}

/** Reads back an .ico directory: the (width, height) of each entry, 256 spelt as 256. */
export function readIcoSizes(ico: Buffer): number[] {
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) throw new Error('Not an .ico file');
  const count = ico.readUInt16LE(4);
  const sizes: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = ICO_HEADER_BYTES + i * ICO_ENTRY_BYTES;
    sizes.push(ico.readUInt8(at) || 256);
  }
  return sizes;
}

/** Reads back an .icns file's chunk types, checking that the lengths add up. */
export function readIcnsTypes(icns: Buffer): string[] {
  if (icns.toString('latin1', 0, 4) !== 'icns') throw new Error('Not an .icns file');
  if (icns.readUInt32BE(4) !== icns.length) throw new Error('.icns length does not match its header');
  const types: string[] = [];
  for (let at = 8; at < icns.length;) {
    types.push(icns.toString('latin1', at, at + 4));
    const length = icns.readUInt32BE(at + 4);
    if (length < 8) throw new Error('.icns chunk shorter than its own header');
    at += length;
  }
  return types;
}
