/** Figure 6: the renderer's JavaScript and CSS, gzipped, as built by the app's Vite config. */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildRenderer } from '../e2e/harness';
import type { Report } from './report';

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Builds into `outDir` (never over the shared dist/) and sums what the page downloads. */
export async function sizeFigures(report: Report, outDir: string): Promise<void> {
  await buildRenderer(outDir);
  const sizes = { js: 0, css: 0, jsRaw: 0, cssRaw: 0 };
  const files: string[] = [];
  for (const file of await filesUnder(outDir)) {
    const kind = extname(file) === '.js' ? 'js' : extname(file) === '.css' ? 'css' : null;
    if (!kind) continue;
    const body = await readFile(file);
    const gzipped = gzipSync(body, { level: 9 }).length;
    sizes[kind] += gzipped;
    sizes[kind === 'js' ? 'jsRaw' : 'cssRaw'] += body.length;
    files.push(`${relative(outDir, file)} ${(gzipped / 1024).toFixed(1)} KB`);
  }
  const kb = (bytes: number) => bytes / 1024;
  const total = kb(sizes.js + sizes.css);
  report.add({
    id: 'size.js',
    section: '6 size',
    label: `renderer JS gzipped (${kb(sizes.jsRaw).toFixed(0)} KB raw)`,
    unit: 'KB',
    value: kb(sizes.js),
  });
  report.add({
    id: 'size.css',
    section: '6 size',
    label: `renderer CSS gzipped (${kb(sizes.cssRaw).toFixed(0)} KB raw)`,
    unit: 'KB',
    value: kb(sizes.css),
  });
  report.add({
    id: 'size.total',
    section: '6 size',
    label: 'renderer JS + CSS gzipped',
    unit: 'KB',
    value: total,
    target: { text: '< 250 KB', met: total < 250 },
    note: files.join(', '),
  });
}
