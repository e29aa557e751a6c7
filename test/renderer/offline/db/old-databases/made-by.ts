/** Which commit wrote each fixture of an old database (make-fixtures.ts). */

/**
 * The last commit where each version was the newest (10: the last before the page's records were
 * sealed at rest, which changed no schema). Versions 3 and 4 were made on two
 * branches at once (Arabic folding; page tags), each numbering its own version 3; the merge
 * made folding 3 and tags 4. A schema 9 of search chunks of 256 (d90f9f6) lived 22 minutes
 * before it was taken back (cdc562d) and is not among them.
 */
export const MADE_BY: readonly { version: number; commit: string }[] = [
  { version: 1, commit: 'd5f0c45' },
  { version: 2, commit: 'df50914' },
  { version: 3, commit: '74b4bf8' },
  { version: 4, commit: 'bd01bc2' },
  { version: 5, commit: 'c465d27' },
  { version: 6, commit: '11bae4b' },
  { version: 7, commit: 'a4678ff' },
  { version: 8, commit: '295609e' },
  { version: 9, commit: 'd6165db' },
  // Today's version as the last till before sealing wrote it: every record in clear (issue 50).
  { version: 10, commit: '1521322' },
];
