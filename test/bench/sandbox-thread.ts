/**
 * The sandbox on a worker thread of the bench's Node process, for the fill section.
 *
 * Why: a real loyalty service answers from its own process, so its work runs beside the
 * main process's, not in turns with it. Started in the bench's own thread, the sandbox took
 * turns on one event loop with the core's handler and the bridge's server: four pages asked
 * at once were answered one after another, each between the others' handling. The fill
 * (several pages in flight) paid that and sequential paging (one at a time) did not. On its
 * own thread it is still in this process, so the processor figures count it under Node.
 */
import { Worker } from 'node:worker_threads';
import type { FaultSettings, SandboxOptions } from '../../sandbox';

export interface SandboxThread {
  url: string;
  faults: {
    set(settings: Partial<FaultSettings>): Promise<void>;
    reset(): Promise<void>;
  };
  close(): Promise<void>;
}

/** What the parent asks the thread (sandbox-worker.ts), and what it answers. */
export type SandboxAsk =
  | { type: 'start'; options: SandboxOptions }
  | { type: 'faults'; settings: Partial<FaultSettings> }
  | { type: 'reset' }
  | { type: 'close' };
export type SandboxRequest = SandboxAsk & { id: number };
export interface SandboxReply {
  id: number;
  url?: string;
  error?: string;
}

export async function startSandboxThread(options: SandboxOptions): Promise<SandboxThread> {
  // A worker's entry must be JavaScript: this one loads the TypeScript module through tsx.
  const entry = new URL('./sandbox-worker.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`,
    { eval: true },
  );
  const waiting = new Map<number, { resolve: (reply: SandboxReply) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (reply: SandboxReply) => {
    const asked = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error !== undefined) asked?.reject(new Error(`The sandbox thread: ${reply.error}`));
    else asked?.resolve(reply);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`The sandbox thread exited (code ${code}).`)));
  const ask = (request: SandboxAsk) =>
    new Promise<SandboxReply>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });

  let url: string;
  try {
    url = (await ask({ type: 'start', options })).url!;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    url,
    faults: {
      set: async (settings) => void (await ask({ type: 'faults', settings })),
      reset: async () => void (await ask({ type: 'reset' })),
    },
    close: async () => {
      try {
        await ask({ type: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
