/**
 * How one record of the work copy becomes a line of its file and back. JSON by default;
 * sealed-lines.ts seals each line under the data key. Another process (the health check)
 * reads the file with the same codec, so this stays two functions and one optional question.
 */
export interface LineCodec {
  encode(record: unknown): string;
  /**
   * The record; undefined when the line cannot be read (garbled); `NOT_OPENED` when it is a
   * line of the codec's own that would not open (sealed under another key, or changed).
   */
  decode(line: string): unknown;
  /**
   * Whether the line is in the format this codec writes (every line is, when absent): a line it
   * reads but did not write (plain JSON from before the seal) has the file rewritten.
   */
  writes?(line: string): boolean;
}

/** A line of the codec's own that would not open: the file's reader tells a lost key from a damaged line. */
export const NOT_OPENED: unique symbol = Symbol('not opened');

/** The JSON record on a line, or undefined when it is not JSON. */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export const jsonLines: LineCodec = {
  encode: (record) => JSON.stringify(record),
  decode: parseJsonLine,
};
