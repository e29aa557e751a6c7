import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertIcon } from 'app-builder-lib/out/util/iconConverter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIcnsTypes, readIcoSizes } from '../../build/icon-formats';
import { BUILD_DIR, ICNS_SIZES, ICO_SIZES, ICON_FILES, makeIcons } from '../../build/make-icons';

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The PNG images inside an .icns file, by chunk type. */
function icnsImages(icns: Buffer): Map<string, Buffer> {
  const images = new Map<string, Buffer>();
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    images.set(icns.toString('latin1', at, at + 4), icns.subarray(at + 8, at + length));
    at += length;
  }
  return images;
}

describe('app icons', () => {
  let regenerated: string;

  beforeAll(async () => {
    regenerated = await mkdtemp(join(tmpdir(), 'till-icons-'));
    await makeIcons(regenerated);
  });
  afterAll(() => rm(regenerated, { recursive: true, force: true }));

  it.each(ICON_FILES)('the committed %s is exactly what build/make-icons.ts renders from icon.svg', async (name) => {
    const committed = await readFile(join(BUILD_DIR, name));
    const fresh = await readFile(join(regenerated, name));
    expect(committed.equals(fresh), `${name} is stale: run npm run icons and commit the result`).toBe(true);
  });

  it('icon.png is a 1024 px square PNG', async () => {
    const png = await readFile(join(BUILD_DIR, 'icon.png'));
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(pngSize(png)).toEqual({ width: 1024, height: 1024 });
  });

  it('icon.ico holds every Windows size from 16 to 256 px', async () => {
    const ico = await readFile(join(BUILD_DIR, 'icon.ico'));
    expect(readIcoSizes(ico)).toEqual([...ICO_SIZES]);
  });

  it('icon.ico stores small sizes as 32-bit bitmaps with real transparency, and 256 px as PNG', async () => {
    const ico = await readFile(join(BUILD_DIR, 'icon.ico'));
    const entry = (i: number) => ({
      length: ico.readUInt32LE(6 + i * 16 + 8),
      offset: ico.readUInt32LE(6 + i * 16 + 12),
    });

    const small = entry(0); // 16 px
    expect(ico.readUInt32LE(small.offset)).toBe(40); // BITMAPINFOHEADER
    expect(ico.readInt32LE(small.offset + 8)).toBe(32); // height doubled for the mask
    const firstPixelAlpha = ico[small.offset + 40 + 3]; // bottom-left corner lies outside the rounded tile
    expect(firstPixelAlpha).toBe(0);
    const centrePixel = small.offset + 40 + (8 * 16 + 8) * 4;
    expect(ico[centrePixel + 3]).toBe(255); // the star in the middle is opaque

    const large = entry(ICO_SIZES.length - 1);
    expect(ico.subarray(large.offset, large.offset + 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(pngSize(ico.subarray(large.offset, large.offset + large.length))).toEqual({ width: 256, height: 256 });
  });

  it('icon.icns fills every slot of the macOS ladder with a PNG of the right size', async () => {
    const icns = await readFile(join(BUILD_DIR, 'icon.icns'));
    expect(readIcnsTypes(icns).sort()).toEqual(
      ['icp4', 'icp5', 'ic11', 'icp6', 'ic12', 'ic07', 'ic08', 'ic13', 'ic09', 'ic14', 'ic10'].sort(),
    );
    const expected: Record<string, number> = {
      icp4: 16,
      icp5: 32,
      ic11: 32,
      icp6: 64,
      ic12: 64,
      ic07: 128,
      ic08: 256,
      ic13: 256,
      ic09: 512,
      ic14: 512,
      ic10: 1024,
    };
    for (const [type, png] of icnsImages(icns)) {
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE), `${type} is a PNG`).toBe(true);
      expect(pngSize(png), type).toEqual({ width: expected[type], height: expected[type] });
    }
    expect(new Set(Object.values(expected))).toEqual(new Set(ICNS_SIZES));
  });

  it.each([
    ['ico', 'icon.ico'],
    ['icns', 'icon.icns'],
  ] as const)('electron-builder takes the %s as it is, without fetching its icon tool', async (format, file) => {
    const outDir = join(regenerated, `converted-${format}`);
    const { icons, isFallback } = await convertIcon({
      sources: ['icon'],
      fallbackSources: [],
      roots: [BUILD_DIR],
      format,
      outDir,
    });
    expect(isFallback).toBe(false);
    expect(icons.map((icon) => icon.file)).toEqual([join(BUILD_DIR, file)]);
  });
});
