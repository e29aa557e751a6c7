/** Every version of the database, oldest first: one file each. */
import type { Migration } from './migration';
import { v1 } from './v1-first-tables';
import { v2 } from './v2-search-chunks';
import { v3 } from './v3-arabic-name-words';
import { v4 } from './v4-page-tags';
import { v5 } from './v5-no-name-word-index';
import { v6 } from './v6-customer-blocks';
import { v7 } from './v7-id-index-not-unique';
import { v8 } from './v8-no-phone-index';
import { v9 } from './v9-listings-and-digests';
import { v10 } from './v10-item-ids';

export type { Migration } from './migration';

export const MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10];
