import { scoreBasisText } from "@/lib/ingest/formats/item-results/provenance";
import type { UploadContext } from "./upload-panel";
import { POSITION, matchText, type ToolChoices, type ToolResultsPreview } from "./tool-results-state";

type Change = (patch: Partial<ToolChoices>) => void;

/** What the file is, as the tool recorded it, and what its scores are worth. */
export function DetectedRun({ preview }: { preview: ToolResultsPreview }) {
  const r = preview.run;
  return (
    <dl className="stack" data-testid="tool-detected">
      <div>
        <dt>Detected</dt>
        <dd>
          {preview.format.label} — {r.tool}
          {r.toolVersion ? ` ${r.toolVersion}` : " (version not recorded)"}
        </dd>
      </div>
      <div>
        <dt>Model, task</dt>
        <dd>
          {r.model ?? (preview.models.length > 1 ? `${preview.models.length} models` : "not recorded")}
          {r.modelRevision ? ` (${r.modelRevision})` : ""} · task {r.task ?? "not recorded"}
          {r.taskVersion ? ` (${r.taskVersion})` : ""}
        </dd>
      </div>
      <div>
        <dt>Items</dt>
        <dd className="figure">{preview.itemCount.toLocaleString("en-US")}</dd>
      </div>
      <div>
        <dt>Scores</dt>
        <dd data-testid="tool-score-basis">{scoreBasisText(preview.scoreBasis)}</dd>
      </div>
    </dl>
  );
}

/** Which field holds the dataset's item id; the item's position only behind an explicit checkbox. */
export function IdFieldChoice({
  preview,
  choices,
  onChange,
}: {
  preview: ToolResultsPreview;
  choices: ToolChoices;
  onChange: Change;
}) {
  const chosen = preview.idFields.find((f) => f.path === choices.idField);
  return (
    <fieldset>
      <legend>Item id</legend>
      <label>
        Field holding the dataset&apos;s item id
        <select value={choices.idField} onChange={(e) => onChange({ idField: e.currentTarget.value })}>
          <option value="">choose…</option>
          {preview.idFields.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path} — {matchText(f)}
            </option>
          ))}
          {choices.orderIsDatasetOrder && (
            <option value={POSITION}>position (the n-th item is the dataset&apos;s n-th)</option>
          )}
        </select>
      </label>
      {chosen && (
        <p className="muted" data-testid="id-field-evidence">
          e.g.{" "}
          {chosen.examples.slice(0, 5).map((x, i) => (
            <code key={i}>{x} </code>
          ))}
          — {matchText(chosen)}
        </p>
      )}
      <label style={{ fontWeight: 400 }}>
        <input
          type="checkbox"
          checked={choices.orderIsDatasetOrder}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            onChange({
              orderIsDatasetOrder: checked,
              ...(!checked && choices.idField === POSITION ? { idField: "" } : {}),
            });
          }}
        />{" "}
        The order is the dataset&apos;s order (offers the item&apos;s position as its id; checked against the
        dataset&apos;s text where the file carries the input)
      </label>
    </fieldset>
  );
}

/** The label(s) read as the decision's positive class, and the repeat that counts. */
export function LabelChoice({
  preview,
  choices,
  positiveClass,
  onChange,
}: {
  preview: ToolResultsPreview;
  choices: ToolChoices;
  positiveClass: string;
  onChange: Change;
}) {
  const toggle = (label: string, on: boolean) =>
    onChange({
      positiveLabels: on
        ? [...choices.positiveLabels.filter((l) => l !== label), label]
        : choices.positiveLabels.filter((l) => l !== label),
    });
  return (
    <>
      <fieldset>
        <legend>Labels meaning “{positiveClass}” (the positive class)</legend>
        {preview.labels.map((label) => (
          <label key={label} style={{ fontWeight: 400 }}>
            <input
              type="checkbox"
              checked={choices.positiveLabels.includes(label)}
              onChange={(e) => toggle(label, e.currentTarget.checked)}
            />{" "}
            <code>{label}</code>
          </label>
        ))}
      </fieldset>
      {preview.repeats.length > 1 && (
        <label>
          Repeat that counts <span className="muted">(epoch, filter, trial: one row per item)</span>
          <select value={choices.repeat} onChange={(e) => onChange({ repeat: e.currentTarget.value })}>
            {preview.repeats.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}

/** Which candidate the results are for: one select, or one per model of a multi-model file. */
export function CandidateChoice({
  preview,
  choices,
  context,
  onChange,
}: {
  preview: ToolResultsPreview;
  choices: ToolChoices;
  context: UploadContext;
  onChange: Change;
}) {
  const options = context.candidates.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
  if (preview.models.length <= 1)
    return (
      <label>
        Candidate
        <select value={choices.candidateId} onChange={(e) => onChange({ candidateId: e.currentTarget.value })}>
          {options}
        </select>
      </label>
    );
  return (
    <fieldset>
      <legend>Candidate of each model (one run per model)</legend>
      {preview.models.map((m) => (
        <label key={m}>
          <code>{m}</code>
          <select
            value={choices.modelCandidates[m] ?? ""}
            onChange={(e) => onChange({ modelCandidates: { ...choices.modelCandidates, [m]: e.currentTarget.value } })}
          >
            <option value="">not imported</option>
            {options}
          </select>
        </label>
      ))}
    </fieldset>
  );
}
