/** The browser shell's one line on standard error when it cannot go on, and exit code 1. */
export function fail(line: string): never {
  console.error(`Loyalty Till: ${line}`);
  process.exit(1);
}
