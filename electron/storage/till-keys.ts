import { join } from 'node:path';
import type { Logger } from '../log/log';
import { openDataKey, type DataKey } from './data-key';
import type { KeyCipher } from './key-cipher';
import { API_KEY_FILE, openVault, type Vault } from './vault';

/**
 * The till's two keys at rest, both sealed by the one cipher (the OS's store; the key file in
 * the browser shell): the API key, its identity at the service (`vault.ts`), and the data key,
 * for what its page keeps (`data-key.ts`). Opened one after the other, so a first start asks
 * the OS's store one thing at a time.
 */
export async function openTillKeys(options: {
  folder: string;
  cipher: KeyCipher;
  log: Logger;
}): Promise<{ vault: Vault; dataKey: DataKey }> {
  const { folder, cipher, log } = options;
  const vault = await openVault({ file: join(folder, API_KEY_FILE), cipher, log });
  const dataKey = await openDataKey({ folder, cipher, log });
  return { vault, dataKey };
}
