/** UTC date and time, to the minute (the same on server and client). */
export function formatDateTime(date: Date | string): string {
  return new Date(date).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}
