import { STAGES, type StageKey } from "@/lib/pack/stages";

const OWNS_CLASS = { no: "badge-no", partial: "badge-partial", yes: "badge-yes" } as const;

/** A stage's heading, named exactly as SPEC §3, with its question, evidence class and verdict role. */
export function StageHeader({ stageKey }: { stageKey: StageKey }) {
  const stage = STAGES.find((s) => s.key === stageKey)!;
  return (
    <header className="stage-header">
      <h2 id={`stage-${stage.key}`}>
        <span className="stage-number">{`Stage ${stage.number}`}</span> {stage.name}
      </h2>
      <dl className="stage-facts">
        <div>
          <dt>Question answered:</dt>
          <dd>{stage.question}</dd>
        </div>
        <div>
          <dt>Evidence class:</dt>
          <dd>{stage.evidenceClass}</dd>
        </div>
        <div>
          <dt>Owns the verdict?</dt>
          <dd>
            <span className={`badge ${OWNS_CLASS[stage.owns]}`}>{stage.ownsVerdict}</span>
          </dd>
        </div>
      </dl>
    </header>
  );
}

/** What a stage shows while its evidence streams in. */
export function StageSkeleton({ label }: { label: string }) {
  return (
    <div className="skeleton" aria-busy="true" role="status" aria-label={`Loading ${label}`}>
      <div className="skeleton-line" />
      <div className="skeleton-line short" />
      <div className="skeleton-block" />
    </div>
  );
}
