// RFC 4180 CSV cells. Values that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the
// start) get a leading apostrophe: response bodies come from receivers and must not execute.

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s =
    typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : `${value as number | boolean}`;
  if (typeof value === "string" && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvCell).join(",") + "\r\n";
}
