/**
 * The back office's one CSV writer (decisions 0044 and 0049): files that
 * Japanese Excel opens as they are — UTF-8 with a byte-order mark (without
 * it Excel reads Shift_JIS), CRLF line ends, RFC 4180 quoting — with
 * formulas defused, streamed a page at a time so memory does not grow with
 * the file. The customers' and the bookings' exports both write through it.
 */

export type CsvValue = string | number;

/**
 * One CSV field: quoted when it must be, and a text that a spreadsheet would
 * run as a formula (=, +, -, @, tab, CR) is given a leading apostrophe.
 * Numbers are written as numbers (a negative one is not a formula).
 */
export function csvField(value: CsvValue): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: its fields, comma-separated, ending in CRLF. */
export function csvLine(fields: readonly CsvValue[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/**
 * The file as a stream of UTF-8 bytes: the BOM and the header first, then
 * one chunk per page that `nextPage` returns, until it returns null. Pages
 * are read only as the reader pulls (the stream's queue holds one chunk),
 * so a slow download holds one page in memory, never the whole file.
 */
export function csvStream(
  header: readonly string[],
  nextPage: () => Promise<CsvValue[][] | null>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
        return;
      }
      const rows = await nextPage();
      if (rows === null) {
        controller.close();
        return;
      }
      let chunk = "";
      for (const row of rows) chunk += csvLine(row);
      controller.enqueue(encoder.encode(chunk));
    },
  });
}
