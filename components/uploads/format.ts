export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * Where a leaderboard or serving file's stored records went: to the decision's candidates, or kept
 * without one to shortlist from. A file imported before any candidate exists stores every record
 * for shortlisting, and must not read as "45 stored for the candidates".
 */
export function storedRecords(result: {
  stored: number;
  models: Record<string, string>;
  unshortlistedModels: string[];
}): string {
  const { stored } = result;
  const matched = Object.keys(result.models).length;
  const kept = result.unshortlistedModels.length;
  const models = (n: number) => `${n} model${n === 1 ? "" : "s"}`;
  if (stored === 0) return "none stored";
  if (kept === 0) return `${stored.toLocaleString("en-US")} stored for the candidates`;
  if (matched === 0)
    return `${stored.toLocaleString("en-US")} stored to shortlist from (${models(kept)}, none a candidate yet)`;
  return `${stored.toLocaleString("en-US")} stored: ${models(matched)} matched to candidates, ${models(kept)} kept to shortlist from (or to attach to a candidate on the edit page)`;
}
