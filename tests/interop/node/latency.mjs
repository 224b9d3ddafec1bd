// Per-call latency of the official TypeScript SDK client (npm @modelcontextprotocol/sdk, v1,
// protocol 2025-11-25, over streamable HTTP): the floor's server and toolwright's, in
// alternating rounds on one connection each, medians per server. Started by
// `cargo bench -p toolwright-tests --bench http_load -- --ts-latency`, which serves both and
// passes their URLs:
//
//   node tests/interop/node/latency.mjs FLOOR_URL TOOLWRIGHT_URL [CALLS_PER_ROUND] [ROUNDS]
//
// It fails (exit 1) on any call that is an error or echoes the wrong pose.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [floorUrl, toolwrightUrl, callsArg, roundsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 200);
const rounds = Number(roundsArg ?? 5);
const args = { name: "echo_pose", arguments: { x: 412.5, y: -3.0, z: 200.0 } };

async function connect(url) {
  const client = new Client({ name: "toolwright-latency", version: "0.1.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  for (let i = 0; i < 20; i++) await call(client); // warm-up
  return client;
}

async function call(client) {
  const result = await client.callTool(args);
  if (result.isError || result.structuredContent?.x !== 412.5) {
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
  }
}

async function round(client) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    await call(client);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const floor = await connect(floorUrl);
const toolwright = await connect(toolwrightUrl);
const f = [];
const t = [];
for (let r = 0; r < rounds; r++) {
  f.push(...(await round(floor)));
  t.push(...(await round(toolwright)));
}
await floor.close();
await toolwright.close();
const mf = median(f);
const mt = median(t);
console.log(
  `ts-latency: ${rounds} rounds x ${calls} calls each: median floor ${mf.toFixed(3)} ms, ` +
    `toolwright ${mt.toFixed(3)} ms, difference ${(mt - mf).toFixed(3)} ms`,
);
