import { testCandidateEndpoint } from "@/lib/server/harness/endpoint-test";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/**
 * Sends the evaluation dataset's first item, rendered through the protocol, to the candidate's
 * saved endpoint and answers what came back and how the output contract reads it. Stores nothing.
 */
export const POST = apiRoute<Params>("decision.edit", async ({ actor, params }) =>
  testCandidateEndpoint(actor, params.id, params.candidateId),
);
