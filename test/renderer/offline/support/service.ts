/**
 * A real service for replay tests: the sandbox over HTTP, reached through the main
 * process's own handler table (`createAppCore`), wrapped by `createTillApi` exactly as the
 * preload wraps `ipcRenderer.invoke`.
 */
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { createTillApi, type TillApi } from '../../../../common/contract';
import { APP_SENDER, configureService, createCoreFixture, type CoreFixture } from '../../../support/app-core-fixture';

export interface ServiceHarness {
  sandbox: Sandbox;
  core: CoreFixture;
  api: TillApi;
  close(): Promise<void>;
}

export async function startService(options: { requestTimeoutMs?: number } = {}): Promise<ServiceHarness> {
  const sandbox = await startSandbox();
  const core = await createCoreFixture({ requestTimeoutMs: options.requestTimeoutMs ?? 2_000 });
  await configureService(core, sandbox.url, 'demo-key');
  const api = createTillApi((channel, payload) => core.core.handlers[channel](APP_SENDER, payload));
  return {
    sandbox,
    core,
    api,
    async close() {
      await core.dispose();
      await sandbox.close();
    },
  };
}
