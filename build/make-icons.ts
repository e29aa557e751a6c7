// Renders build/icon.svg into the icon files electron-builder packs:
//   icon.png  (1024 px: the generic source, and Linux)
//   icon.ico  (Windows: executable, installer, uninstaller, shortcuts)
//   icon.icns (macOS: the .app bundle and the dmg volume)
// Run with `npm run icons` after editing the SVG, and commit the results: packing reads
// the committed files and never needs this script. test/build/icons.test.ts checks that
// the committed files are exactly what this script makes from the SVG.
import { Resvg } from '@resvg/resvg-js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeIcns, encodeIco, type RenderedIcon } from './icon-formats';

export const BUILD_DIR = fileURLToPath(new URL('.', import.meta.url));
export const ICON_SOURCE = join(BUILD_DIR, 'icon.svg');

/** Windows shows 16-48 px in lists and the taskbar, up to 256 px in large views. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** Every slot of the macOS icon ladder, 16 px to 512@2x. */
export const ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024] as const;
export const PNG_SIZE = 1024;

/** The files this script writes, relative to the output folder. */
export const ICON_FILES = ['icon.png', 'icon.ico', 'icon.icns'] as const;

/** Renders the SVG at one size. Fonts are never needed by the mark, so none are loaded: faster and machine-independent. */
export function renderIcon(svg: string, size: number): RenderedIcon {
  const rendered = new Resvg(svg, {
    fitTo: { mode: 'width', value: size },
    font: { loadSystemFonts: false },
  }).render();
  if (rendered.width !== size || rendered.height !== size) {
    throw new Error(`${ICON_SOURCE} must be square: rendered ${rendered.width}x${rendered.height} for ${size} px`);
  }
  return { size, png: rendered.asPng(), rgba: straightAlpha(rendered.pixels) };
}

/** resvg hands out premultiplied pixels; bitmaps in an .ico hold straight alpha. */
function straightAlpha(premultiplied: Buffer): Buffer {
  const out = Buffer.from(premultiplied);
  for (let i = 0; i < out.length; i += 4) {
    const alpha = out[i + 3]!;
    if (alpha === 0 || alpha === 255) continue;
    for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.round((out[i + c]! * 255) / alpha));
  }
  return out;
}

/** Writes every file in ICON_FILES into outDir and returns their paths. */
export async function makeIcons(outDir: string = BUILD_DIR, sourceFile: string = ICON_SOURCE): Promise<string[]> {
  const svg = await readFile(sourceFile, 'utf8');
  const sizes = [...new Set<number>([...ICO_SIZES, ...ICNS_SIZES, PNG_SIZE])];
  const rendered = new Map(sizes.map((size) => [size, renderIcon(svg, size)]));
  const pick = (list: readonly number[]) => list.map((size) => rendered.get(size)!);

  await mkdir(outDir, { recursive: true });
  const outputs: Record<(typeof ICON_FILES)[number], Buffer> = {
    'icon.png': rendered.get(PNG_SIZE)!.png,
    'icon.ico': encodeIco(pick(ICO_SIZES)),
    'icon.icns': encodeIcns(pick(ICNS_SIZES)),
  };
  const written: string[] = [];
  for (const name of ICON_FILES) {
    const file = join(outDir, name);
    await writeFile(file, outputs[name]);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await makeIcons(process.argv[2] ?? BUILD_DIR);
  for (const file of written) console.log(`wrote ${file}`);
}
