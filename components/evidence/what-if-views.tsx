"use client";

import { useMemo } from "react";
import { acrossStagesAt, packResultsAt, type WhatIfPack } from "@/lib/evidence/what-if-pack";
import { verdictSummaryOf, type SummaryRevision } from "@/lib/evidence/verdict-summary";
import { AcrossStagesView } from "./across-stages";
import { VerdictBand } from "./verdict-band";
import { FiguresShown, useWhatIf } from "./what-if-context";

/**
 * The verdict band and the across-stages summary at the page's what-if parameters, derived in the
 * browser from the compact pack (lib/evidence/what-if-pack.ts) by the same `packResults()` the
 * server uses; at the stored parameters they are the stored results exactly.
 */
const storedOf = (pack: WhatIfPack) => ({ prevalence: pack.decision.prevalence, operatingThreshold: pack.decision.operatingThreshold });

export function WhatIfVerdict({ pack, revisions }: { pack: WhatIfPack; revisions: readonly SummaryRevision[] }) {
  const { at } = useWhatIf(storedOf(pack));
  const summary = useMemo(() => verdictSummaryOf(pack, packResultsAt(pack, at), revisions), [pack, at, revisions]);
  return <VerdictBand summary={summary} currency={pack.decision.currency} shown={<FiguresShown stored={storedOf(pack)} />} />;
}

export function WhatIfAcross({ pack }: { pack: WhatIfPack }) {
  const { at, isStored } = useWhatIf(storedOf(pack));
  const across = useMemo(() => acrossStagesAt(pack, at), [pack, at]);
  // Significance is a paired bootstrap over the items at the stored π: it stays the stored one.
  const stored = useMemo(() => acrossStagesAt(pack, { threshold: null, prevalence: pack.decision.prevalence }), [pack]);
  return (
    <>
      <FiguresShown stored={storedOf(pack)} />
      <AcrossStagesView decision={pack.decision} candidates={pack.candidates} across={across} storedSignificance={isStored ? null : stored} />
    </>
  );
}
