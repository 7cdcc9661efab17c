import { harnessSettings, setEvalProtocol } from "@/lib/server/harness/endpoints";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** The evaluation protocol and each candidate's endpoint (never a key: its fingerprint). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => harnessSettings(actor, params.id));

/** Sets the protocol: { system?, user, contract, score, sampling? } (lib/harness/protocol.ts). */
export const PUT = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) =>
  setEvalProtocol(actor, params.id, await readJsonBody(req), request),
);
