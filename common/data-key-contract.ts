/**
 * The till's data key as the bridge carries it (docs/security.md#the-data-key): one random
 * AES-256 key per till, made and sealed by the main process, handed to the till's page (never
 * the customer display's) to encrypt what it keeps in IndexedDB. Part of the bridge contract
 * (contract.ts re-exports it).
 */

/** How the stored key (the API key, the data key) is protected at rest (Settings shows it). */
export type KeyProtection =
  | 'os' // safeStorage with a real OS keychain / DPAPI / libsecret / kwallet
  | 'basic_text' // Linux fallback: obfuscated with a hard-coded password, not protected
  | 'key_file' // the browser shell: AES-256-GCM with a key file in the user-data folder, not the OS's store
  | 'unavailable'; // no encryption at all: the key is not stored

/**
 * Why this start's key is a new one although the till had one before, so the page's data
 * encrypted with the old one cannot be read (the page starts blank, and says why):
 */
export type DataKeyLoss =
  /** A sealed key was there and could not be opened: another user or keyring, a changed file. */
  | 'unreadable'
  /** The OS's store did not answer, even after waiting: the sealed key is kept aside, unopened. */
  | 'store_unavailable'
  /** The till had made a key (its marker says so) and the sealed file is gone. */
  | 'missing'
  /** The last key could not be sealed (this computer offers no encryption): it lived for one run. */
  | 'not_kept';

interface DataKeyParts {
  /** The AES-256 key: 32 bytes, base64. Import it non-extractable, then drop these bytes. */
  key: string;
  /** When this key was made (ISO 8601). */
  createdAt: string;
  /** How the sealed key is protected at rest: the API key's words (`os`, `key_file`, ...). */
  protection: KeyProtection;
  /** Whether the key is sealed on disk, so what it encrypts is readable after a restart. */
  kept: boolean;
}

/** What `dataKey` answers: the key, and whether the till's data from before is readable with it. */
export type DataKeyGrant =
  | ({ state: 'ready' } & DataKeyParts)
  | ({
      state: 'lost';
      reason: DataKeyLoss;
      /** When the loss was found (ISO 8601): at this start; `key` is the new one made then. */
      lostAt: string;
    } & DataKeyParts);
