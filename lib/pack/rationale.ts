/**
 * SPEC §2: a shortlist rationale must say why the cited benchmarks are relevant to this task,
 * not just the rank. The rule Verdict enforces (the same on client and server):
 *  1. it names at least one suite the candidate has an imported score for (stage 1 or 2), so
 *     the citation is traceable to evidence in the pack; and
 *  2. it explains: at least 15 words, so "Rank 1 on MMLU" alone is refused.
 * Relevance itself is for the committee to judge; the three questions of resemblance per suite
 * are where the analyst answers it in detail.
 */
export const MIN_RATIONALE_WORDS = 15;

export function citedSuites(rationale: string, suites: readonly string[]): string[] {
  const text = rationale.toLowerCase();
  return suites.filter((s) => text.includes(s.toLowerCase()));
}

export function rationaleProblem(rationale: string, suites: readonly string[]): string | null {
  const words = rationale.trim().split(/\s+/).filter(Boolean).length;
  if (suites.length === 0)
    return "Import a leaderboard or preference score for this candidate first: the rationale must cite a benchmark in the pack.";
  if (citedSuites(rationale, suites).length === 0)
    return `Name the benchmark you rely on — one of: ${suites.join(", ")}.`;
  if (words < MIN_RATIONALE_WORDS)
    return `Say why the benchmark is relevant to this task, not just the rank (at least ${MIN_RATIONALE_WORDS} words).`;
  return null;
}
