import "server-only";
import { demoAnswers, demoSimPort } from "@/lib/demo/harness";
import { startSimServer } from "@/lib/harness/network/sim-server";

const holder = globalThis as typeof globalThis & { __verdictDemoSim?: Promise<unknown> };

/**
 * In demo mode the app process serves the demo's simulated endpoint on loopback (once per
 * process): 40 ms to the first token, 5 ms a token, answers from the demo's data. Another process
 * already serving it (a second app server) is fine: its port is taken, this one logs and goes on.
 */
export function startDemoEndpoint(): void {
  holder.__verdictDemoSim ??= startSimServer(
    { ttftMs: 40, itlMs: 5, output: "json", labels: ["violating", "ok"], precise: false, answer: demoAnswers() },
    demoSimPort(),
  ).then(
    (server) => console.log(`Simulated endpoint for the demo at ${server.url}`),
    (error: unknown) =>
      console.error(
        `The demo's simulated endpoint did not start: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
}
