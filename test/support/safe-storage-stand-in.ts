/**
 * A recording stand-in for Electron's `safeStorage`, for the shell's tests against the mocked
 * `electron` module (the binary cannot run here).
 *
 * Its sealing is reversible and never the identity. Two formats, as Electron has: what the
 * synchronous API wrote (`sealedTheOldWay`: the text's bytes reversed) and what the
 * asynchronous one writes now (`v2:` before them). `decryptStringAsync` opens both, as Electron
 * documents, and asks for the old ones to be sealed again (`shouldReEncrypt`), as a store
 * whose key was rotated does. The synchronous methods throw and are recorded: Electron 46 has
 * none, and a test asserts `syncCalls` stays empty.
 */
const CURRENT = Buffer.from('v2:');

export interface SafeStorageStandIn {
  /** Every call of a synchronous method, by name: none is allowed. */
  syncCalls: string[];
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(text: string): Promise<Buffer>;
  decryptStringAsync(data: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend(): string;
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(data: Buffer): string;
}

/** What `safeStorage.encryptString` would have written for `text` (the stand-in's old format). */
export function sealedTheOldWay(text: string): Buffer {
  return Buffer.from(text, 'utf8').reverse();
}

export function createSafeStorageStandIn(): SafeStorageStandIn {
  const syncCalls: string[] = [];
  const refuse = (name: string): never => {
    syncCalls.push(name);
    throw new Error(`safeStorage.${name} was removed in Electron 46: use the asynchronous API.`);
  };
  return {
    syncCalls,
    isAsyncEncryptionAvailable: async () => true,
    encryptStringAsync: async (text) => Buffer.concat([CURRENT, sealedTheOldWay(text)]),
    async decryptStringAsync(data) {
      const current = data.subarray(0, CURRENT.length).equals(CURRENT);
      const body = Buffer.from(current ? data.subarray(CURRENT.length) : data);
      return { result: body.reverse().toString('utf8'), shouldReEncrypt: !current };
    },
    getSelectedStorageBackend: () => 'gnome_libsecret',
    isEncryptionAvailable: () => refuse('isEncryptionAvailable'),
    encryptString: () => refuse('encryptString'),
    decryptString: () => refuse('decryptString'),
  };
}
