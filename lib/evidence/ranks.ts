/**
 * Rank comparison across stages (SPEC §3 "Across stages"), pure. Ranks are 1..n with ties sharing
 * the best rank ("competition" ranking); a candidate without the figure has no rank.
 */
export type Ranking = Map<string, number>;

export function rankBy(values: ReadonlyMap<string, number | null | undefined>, higherIsBetter: boolean): Ranking {
  const present = [...values].filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]));
  return new Map(present.map(([id, v]) => [id, 1 + present.filter(([, w]) => (higherIsBetter ? w > v : w < v)).length]));
}

/**
 * Kendall's τ-b between two rankings over the candidates ranked by both:
 * τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ and n₂ the pairs tied in each ranking.
 * Null when fewer than two candidates are common or a ranking is all ties.
 */
export function kendallTau(a: Ranking, b: Ranking): number | null {
  const ids = [...a.keys()].filter((id) => b.has(id));
  let concordant = 0;
  let discordant = 0;
  let tiedA = 0;
  let tiedB = 0;
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const da = Math.sign(a.get(ids[i]!)! - a.get(ids[j]!)!);
      const db = Math.sign(b.get(ids[i]!)! - b.get(ids[j]!)!);
      if (da === 0) tiedA++;
      if (db === 0) tiedB++;
      if (da !== 0 && db !== 0) {
        if (da === db) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (ids.length * (ids.length - 1)) / 2;
  const denominator = Math.sqrt((n0 - tiedA) * (n0 - tiedB));
  return denominator > 0 ? (concordant - discordant) / denominator : null;
}

export interface NamedRanking {
  key: string;
  /** As it reads in a sentence: "MMLU", "AP at 2% prevalence". */
  label: string;
  ranking: Ranking;
}

/**
 * One sentence per candidate whose rank on a shortlisting ranking differs from its rank on a
 * verdict ranking: "Atlas: #1 on MMLU and #1 on Chatbot Arena, but #3 on AP at 2% prevalence".
 */
export function rankReversals(
  candidates: readonly { id: string; name: string }[],
  shortlisting: readonly NamedRanking[],
  verdict: readonly NamedRanking[],
): { candidateId: string; text: string }[] {
  const out: { candidateId: string; text: string }[] = [];
  for (const c of candidates) {
    const s = shortlisting.filter((r) => r.ranking.has(c.id));
    const v = verdict.filter((r) => r.ranking.has(c.id));
    const reversed = s.some((rs) => v.some((rv) => rs.ranking.get(c.id) !== rv.ranking.get(c.id)));
    if (!reversed) continue;
    const part = (r: NamedRanking) => `#${r.ranking.get(c.id)} on ${r.label}`;
    out.push({ candidateId: c.id, text: `${c.name}: ${s.map(part).join(" and ")}, but ${v.map(part).join(" and ")}` });
  }
  return out;
}
