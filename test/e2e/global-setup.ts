/**
 * The end-to-end project's setup, once a run: the renderer built once, for every file to serve
 * (`builtRenderer` in harness.ts). Building it in each file's own setup cost a build a file, the
 * largest part of the e2e run on two cores. The files only read what is built.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildRenderer } from './renderer-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The renderer built for this run (`vite build`), shared by every end-to-end file. */
    rendererDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const work = await mkdtemp(join(tmpdir(), 'till-e2e-renderer-'));
  const rendererDir = join(work, 'renderer');
  await buildRenderer(rendererDir);
  project.provide('rendererDir', rendererDir);
  return () => rm(work, { recursive: true, force: true });
}
