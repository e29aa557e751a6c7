// The shop's claims kept on disk across a restart (electron/shop-ledger/claim-store.ts).
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { claimsFile, MAX_KEPT_CLAIMS } from '../../../electron/shop-ledger/claim-store';
import { newClaim } from '../../../electron/shop-ledger/claims';
import { SHOP_KEYS } from '../../support/shop-keys';

const TAG = '0123456789abcdef';
const AT = new Date('2026-11-26T10:00:00.000Z');
const CLAIM = newClaim(SHOP_KEYS, 'RW-KEPT001', 'Till 1', AT);

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'till-claims-'));
  file = join(dir, 'shop-claims.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the claims kept on disk', () => {
  test('come back as saved, for the same shop only, in a file only the user reads', async () => {
    const store = claimsFile(file);
    expect(await store.load(TAG)).toEqual({ claims: [], settled: [] });
    await store.save(TAG, { claims: [CLAIM], settled: [[CLAIM.token, AT.getTime()]] });
    expect(await claimsFile(file).load(TAG)).toEqual({ claims: [CLAIM], settled: [[CLAIM.token, AT.getTime()]] });
    expect(await claimsFile(file).load('fedcba9876543210')).toEqual({ claims: [], settled: [] });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Tokens, names, times and nonces: no reward code.
    expect(await readFile(file, 'utf8')).not.toContain('RW-KEPT001');
  });

  test('a broken or hostile file gives what is valid in it, bounded', async () => {
    await writeFile(file, '{ not json');
    expect(await claimsFile(file).load(TAG)).toEqual({ claims: [], settled: [] });
    const many = Array.from({ length: MAX_KEPT_CLAIMS + 5 }, () => CLAIM);
    await writeFile(
      file,
      JSON.stringify({ v: 1, shop: TAG, claims: [...many, { ...CLAIM, till: '\u0000' }, 'x'], settled: [['?', -1]] }),
    );
    const loaded = await claimsFile(file).load(TAG);
    expect(loaded.claims).toHaveLength(MAX_KEPT_CLAIMS);
    expect(loaded.settled).toEqual([]);
  });
});
