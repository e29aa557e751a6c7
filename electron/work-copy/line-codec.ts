/**
 * How one record of the work copy becomes a line of its file and back. JSON by default; a
 * codec that seals each line can take its place without the file's logic changing.
 */
export interface LineCodec {
  encode(record: unknown): string;
  /** The record, or undefined when the line cannot be read. */
  decode(line: string): unknown;
}

export const jsonLines: LineCodec = {
  encode: (record) => JSON.stringify(record),
  decode(line) {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  },
};
