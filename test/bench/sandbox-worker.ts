/** The worker thread of sandbox-thread.ts: one sandbox, driven by the parent's messages. */
import { parentPort } from 'node:worker_threads';
import { startSandbox, type Sandbox } from '../../sandbox';
import type { SandboxReply, SandboxRequest } from './sandbox-thread';

let sandbox: Sandbox | null = null;

async function handle(request: SandboxRequest): Promise<SandboxReply> {
  switch (request.type) {
    case 'start':
      sandbox = await startSandbox(request.options);
      return { id: request.id, url: sandbox.url };
    case 'faults':
      sandbox?.faults.set(request.settings);
      return { id: request.id };
    case 'reset':
      sandbox?.faults.reset();
      return { id: request.id };
    case 'close':
      await sandbox?.close();
      sandbox = null;
      return { id: request.id };
  }
}

parentPort!.on('message', (request: SandboxRequest) => {
  handle(request).then(
    (reply) => parentPort!.postMessage(reply),
    (error: unknown) =>
      parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
