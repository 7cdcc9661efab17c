import { can } from "@/lib/auth/permissions";
import { getHarnessSettings } from "@/lib/server/pack/get-pack";
import { listHarnessRuns } from "@/lib/server/harness/runs";
import type { Actor } from "@/lib/server/session";
import { HarnessRuns } from "@/components/harness/harness-runs";

/**
 * "Runs from Verdict": the candidates' endpoints run over the evaluation dataset with the
 * decision's protocol (lib/server/harness). Shown once a protocol is set or a run exists.
 */
export async function HarnessSection({ actor, decisionId }: { actor: Actor; decisionId: string }) {
  const [settings, runs] = await Promise.all([
    getHarnessSettings(actor, decisionId),
    listHarnessRuns(actor, decisionId),
  ]);
  if (!settings.protocol && runs.length === 0) return null;
  const names = Object.fromEntries(settings.candidates.map((c) => [c.id, c.name]));
  const runnable = settings.candidates.flatMap((c) =>
    c.endpoint
      ? [{ id: c.id, name: c.name, simulated: c.endpoint.simulated, concurrency: c.endpoint.concurrency }]
      : [],
  );
  return (
    <section className="card" aria-labelledby="harness-heading">
      <h2 id="harness-heading">Runs from Verdict</h2>
      <p className="muted">
        Each run sends the decision&apos;s prompt to a candidate&apos;s endpoint for every item of the evaluation
        dataset, parses the answers with its output contract
        {settings.protocolSha256 ? ` (protocol ${settings.protocolSha256.slice(0, 12)})` : ""}, and yields stages 3–4
        and a serving measurement for stage 5 from the same requests.
      </p>
      <HarnessRuns
        decisionId={decisionId}
        initial={JSON.parse(JSON.stringify(runs))}
        candidates={runnable}
        names={names}
        canRun={can(actor, "evidence.import")}
      />
    </section>
  );
}
