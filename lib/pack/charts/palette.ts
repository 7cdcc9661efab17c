/**
 * Okabe–Ito palette (Okabe & Ito 2008), safe for the common colour-vision deficiencies. Black is
 * kept for reference lines (floors, SLOs), so candidates start at orange. A colour is an
 * identity: assigned once per candidate, in the decision's candidate order, and used by every
 * chart of the pack. Beyond eight candidates the palette repeats with a dashed stroke so two
 * series never look alike.
 */
export const OKABE_ITO = [
  "#E69F00",
  "#56B4E9",
  "#009E73",
  "#CC79A7",
  "#0072B2",
  "#D55E00",
  "#F0E442",
  "#999999",
] as const;
export const REFERENCE_COLOUR = "#000000";

export interface SeriesStyle {
  colour: string;
  dashed: boolean;
}

export function candidateStyles(candidateIds: readonly string[]): Map<string, SeriesStyle> {
  return new Map(
    candidateIds.map((id, i) => [
      id,
      { colour: OKABE_ITO[i % OKABE_ITO.length] as string, dashed: i >= OKABE_ITO.length },
    ]),
  );
}
