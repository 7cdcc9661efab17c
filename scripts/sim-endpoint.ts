/**
 * A simulated OpenAI-compatible endpoint (lib/harness/network/sim-server.ts) in a process of its own:
 *   tsx scripts/sim-endpoint.ts [--port 4310] [--ttft MS] [--itl MS] [--output label|json] [--labels yes,no]
 * Prints "listening <base URL>" when it answers. The benchmark runs it apart from the harness so
 * the two do not share an event loop; the demo starts it in-process instead.
 */
import { startSimServer } from "../lib/harness/network/sim-server.ts";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const labels = (arg("labels") ?? "yes,no").split(",") as [string, string];
const server = await startSimServer(
  {
    ttftMs: Number(arg("ttft") ?? 0),
    itlMs: Number(arg("itl") ?? 0),
    output: arg("output") === "json" ? "json" : "label",
    labels,
  },
  Number(arg("port") ?? 0),
);
console.log(`listening ${server.url}`);
// Reconfigured by a line on stdin: {"ttftMs":40,"itlMs":5}
process.stdin.setEncoding("utf8");
process.stdin.on("data", (line: string) => {
  for (const l of line.split("\n").filter(Boolean)) {
    server.configure(JSON.parse(l) as Parameters<typeof server.configure>[0]);
    console.log("configured");
  }
});
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
