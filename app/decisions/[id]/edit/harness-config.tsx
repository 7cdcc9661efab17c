import { harnessSettings } from "@/lib/server/harness/endpoints";
import { previewItem } from "@/lib/server/harness/endpoint-test";
import type { Actor } from "@/lib/server/session";
import { ProtocolForm } from "@/components/harness/protocol-form";
import { EndpointForm } from "@/components/harness/endpoint-form";
import { EndpointTest } from "@/components/harness/endpoint-test";
import { setEndpointAction, setProtocolAction, testEndpointAction } from "./harness-actions";

/**
 * The harness configured on the page (issue 26 item 7): the decision's evaluation protocol and
 * each candidate's endpoint, through the same use cases as the API and `verdict run`.
 */
export async function HarnessConfigSection({
  actor,
  id,
  positiveClass,
  editable,
}: {
  actor: Actor;
  id: string;
  positiveClass: string;
  editable: boolean;
}) {
  const [settings, item] = await Promise.all([harnessSettings(actor, id), previewItem(actor, id)]);
  return (
    <section aria-labelledby="harness-config-heading">
      <h2 id="harness-config-heading">Evaluation harness</h2>
      <p className="muted">
        To run candidates from Verdict: the prompt each dataset item is sent with, how the answer is read, and each
        candidate&apos;s OpenAI-compatible endpoint. Runs start from the evidence pack&apos;s &quot;Runs from
        Verdict&quot;. Every change is audited.
      </p>
      <div className="card">
        <h3>Evaluation protocol</h3>
        {settings.protocolSha256 && <p className="muted">Saved protocol {settings.protocolSha256.slice(0, 12)}.</p>}
        <ProtocolForm
          decisionId={id}
          protocol={settings.protocol}
          positiveClass={positiveClass}
          item={item}
          action={setProtocolAction}
          disabled={!editable}
        />
      </div>
      {settings.candidates.length === 0 && <p className="card muted">No candidates yet: add them above.</p>}
      {settings.candidates.map((c) => (
        <div key={c.id} className="card">
          <h3>
            {c.name}: endpoint{c.endpoint?.simulated ? " (simulated endpoint)" : ""}
          </h3>
          <EndpointForm
            decisionId={id}
            candidate={{ id: c.id, name: c.name }}
            endpoint={c.endpoint}
            action={setEndpointAction}
            disabled={!editable}
          />
          {c.endpoint && settings.protocol && item && (
            <EndpointTest decisionId={id} candidate={{ id: c.id, name: c.name }} action={testEndpointAction} />
          )}
          {c.endpoint && (!settings.protocol || !item) && (
            <p className="muted">
              Save the protocol and upload the evaluation dataset to test this endpoint with one item.
            </p>
          )}
        </div>
      ))}
    </section>
  );
}
