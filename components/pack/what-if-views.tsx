"use client";

import { useMemo } from "react";
import { acrossStagesAt, packResultsAt } from "@/lib/pack/what-if-pack";
import { verdictSummaryOf, type SummaryRevision, type VerdictSummary } from "@/lib/pack/verdict-summary";
import type { AcrossStages } from "@/lib/pack/across-stages";
import type { PackCandidate, PackDecision } from "@/lib/pack/pack-data";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import { usePageView } from "./page-view-context";
import { AcrossStagesView } from "./across-stages";
import { VerdictBand } from "./verdict-band";
import { FiguresShown, useWhatIf } from "./what-if-context";

/**
 * The verdict band and the across-stages summary. At the stored parameters they show the stored
 * results, derived on the server once per evidence state by the same functions; a what-if derives
 * them in the browser from the compact pack (lib/pack/what-if-pack.ts, in the page's view) by
 * the same `packResults()` the server uses.
 */
type StoredParameters = { prevalence: number; operatingThreshold: number; operatingRule?: OperatingRuleKind | null };

export function WhatIfVerdict({
  stored,
  summary: storedSummary,
  currency,
  revisions,
}: {
  stored: StoredParameters;
  summary: VerdictSummary;
  currency: string;
  revisions: readonly SummaryRevision[];
}) {
  const { at, isStored } = useWhatIf(stored);
  const pack = usePageView()?.whatIf ?? null;
  const summary = useMemo(
    () => (isStored || !pack ? storedSummary : verdictSummaryOf(pack, packResultsAt(pack, at), revisions)),
    [isStored, pack, at, revisions, storedSummary],
  );
  return <VerdictBand summary={summary} currency={currency} shown={<FiguresShown stored={stored} />} />;
}

export function WhatIfAcross({
  stored,
  decision,
  candidates,
  across: storedAcross,
}: {
  stored: StoredParameters;
  decision: PackDecision;
  candidates: PackCandidate[];
  across: AcrossStages;
}) {
  const { at, isStored } = useWhatIf(stored);
  const pack = usePageView()?.whatIf ?? null;
  const across = useMemo(
    () => (isStored || !pack ? storedAcross : acrossStagesAt(pack, at)),
    [isStored, pack, at, storedAcross],
  );
  // Significance is computed over the items at the stored π (paired intervals, McNemar): it stays the stored one.
  return (
    <>
      <FiguresShown stored={stored} />
      <AcrossStagesView
        decision={decision}
        candidates={candidates}
        across={across}
        storedSignificance={isStored ? null : storedAcross}
      />
    </>
  );
}
