/**
 * The date a published file's name states for its numbers: the Chatbot Arena publishes
 * `leaderboard_table_20240705.csv`, HELM releases and copies are commonly named with their suite
 * date (`groups_2024-07-19.json`). The first valid YYYYMMDD or YYYY-MM-DD in the name, as ISO 8601
 * at UTC midnight; undefined when the name states none (never guessed from anything else).
 */
export function dateInFileName(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const base = fileName.split(/[\\/]/).pop() ?? "";
  for (const m of base.matchAll(/(?<!\d)(20\d{2})-?(\d{2})-?(\d{2})(?!\d)/g)) {
    const [, y, mo, d] = m;
    const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    // Rejects 20241399 and the like: the date must survive the round trip.
    if (date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d)) return date.toISOString();
  }
  return undefined;
}
