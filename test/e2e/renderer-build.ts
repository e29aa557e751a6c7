/**
 * The built renderer the end-to-end tests serve: built once a run by the e2e project's global
 * setup (global-setup.ts) and shared, or built here where no run provided one (the benchmark,
 * run by tsx, and a size measurement that needs a build of its own).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { inject } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function buildRenderer(outDir: string): Promise<void> {
  await viteBuild({
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

/**
 * Where the built renderer is: the run's shared build under Vitest's e2e project, otherwise a
 * build made now into `fallbackDir`. Callers only read from it.
 */
export async function builtRenderer(fallbackDir: string): Promise<string> {
  const shared = process.env.VITEST ? providedRendererDir() : null;
  if (shared) return shared;
  await buildRenderer(fallbackDir);
  return fallbackDir;
}

function providedRendererDir(): string | null {
  try {
    return inject('rendererDir') ?? null;
  } catch {
    // A project without the e2e setup (none provides it): build as before.
    return null;
  }
}
