// The robot_arm example driven over stdio by the official TypeScript MCP SDK client
// (npm @modelcontextprotocol/sdk, pinned in package-lock.json). Its client validates each
// structuredContent against the tool's outputSchema itself (with Ajv); this file also checks every
// schema against the JSON Schema 2020-12 meta-schema with Ajv's 2020-12 build. Over streamable
// HTTP, on 2025-11-25's session wire, calls that stream their progress answer far below the
// 40 ms of a delayed-ACK stall (client_v2.test.mjs does the same on 2026-07-28).
//
//   ROBOT_ARM_BIN=target/debug/examples/robot_arm node --test tests/interop/node
//
// .ci/run runs it after `npm ci` when node and npm are installed.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020.js";

import { serveForTiming, STALL_BOUND_MS, upperQuartileMs } from "./robot_arm_http.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = process.env.ROBOT_ARM_BIN ?? path.join(REPO, "target/debug/examples/robot_arm");
const CATALOG = process.env.PARTS_CATALOG_BIN ?? path.join(path.dirname(BIN), "parts_catalog");

const TOOLS = [
  "move_arm_to_pose",
  "grasp_object_force_control",
  "release_object",
  "stop_arm",
  "read_ft_sensor",
  "plan_trajectory",
  "follow_trajectory",
  "get_arm_state",
  "capture_image",
  "describe_tool",
];
// The tools that return an image block (a PNG) after their JSON.
const IMAGE_TOOLS = new Set(["capture_image"]);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const HOME = { x: 300, y: 0, z: 400 };
const CUBE = { x: 400, y: 0, z: 25 };
const FIX = "The tool did not run. Fix the arguments above and call it again.";

/** Runs `body` with a client connected to a fresh server process (the robot arm, or `bin`). */
async function withClient(body, bin = BIN) {
  assert.ok(existsSync(bin), `${bin} does not exist: run \`cargo build --examples\` or set ROBOT_ARM_BIN`);
  const transport = new StdioClientTransport({
    command: bin,
    // A test rig: no one confirms the motions (test_safe_actuation.py covers confirmation).
    args: ["serve", "--confirm=off"],
    env: { ROBOT_ARM_TIME_SCALE: "0", RUST_LOG: "warn" },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const client = new Client({ name: "toolwright-interop", version: "0.1.0" });
  // The client hands the negotiated version to transports that want it (HTTP); record it.
  transport.setProtocolVersion = (version) => {
    client.negotiatedProtocolVersion = version;
  };
  await client.connect(transport);
  try {
    await body(client);
  } catch (e) {
    if (log) console.error(`--- robot_arm stderr ---\n${log}`);
    throw e;
  } finally {
    await client.close();
  }
}

function text(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.equal(result.content[0].type, "text");
  return result.content[0].text;
}

async function state(client) {
  const r = await client.callTool({ name: "get_arm_state", arguments: {} });
  assert.ok(!r.isError, JSON.stringify(r));
  return r.structuredContent;
}

// Ajv in strict mode, taught toolwright's one extension keyword.
function strictAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addKeyword({ keyword: "x-unit", schemaType: "string" });
  return ajv;
}

test("handshake", async () => {
  await withClient(async (client) => {
    assert.equal(client.getServerVersion()?.name, "toolwright-examples");
    assert.ok(client.getServerCapabilities()?.tools, "the server announces tools");
    assert.match(client.getInstructions() ?? "", /get_arm_state/);
    // The server agreed to the newest version this client proposes.
    assert.equal(client.negotiatedProtocolVersion, LATEST_PROTOCOL_VERSION);
  });
});

test("every schema is valid JSON Schema 2020-12, and compiles in Ajv's strict mode", async () => {
  const ajv = strictAjv();
  // Not vacuous: the meta-schema check rejects a broken schema.
  assert.equal(ajv.validateSchema({ type: "object", properties: { x: { type: "pointer" } } }), false);
  await withClient(async (client) => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS,
    );
    for (const tool of tools) {
      for (const [kind, schema] of [
        ["inputSchema", tool.inputSchema],
        ["outputSchema", tool.outputSchema],
      ]) {
        assert.ok(schema, `${tool.name} has an ${kind}`);
        assert.equal(ajv.validateSchema(schema), true, `${tool.name} ${kind}: ${ajv.errorsText(ajv.errors)}`);
        assert.doesNotThrow(() => ajv.compile(schema), `${tool.name} ${kind} compiles`);
        assert.equal(schema.type, "object");
        assert.ok(!JSON.stringify(schema).includes("$ref"), `${tool.name} ${kind} is inline`);
      }
    }
  });
});

test("every tool with valid arguments; structuredContent matches the outputSchema", async () => {
  const ajv = strictAjv();
  await withClient(async (client) => {
    const { tools } = await client.listTools();
    const validators = Object.fromEntries(tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));
    const called = new Set();
    const call = async (name, args) => {
      called.add(name);
      // The SDK's callTool already rejects structuredContent that does not match outputSchema.
      const r = await client.callTool({ name, arguments: args });
      assert.ok(!r.isError, `${name}: ${JSON.stringify(r)}`);
      const validate = validators[name];
      assert.ok(validate(r.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
      const images = r.content.filter((block) => block.type === "image");
      for (const image of images) {
        assert.ok(IMAGE_TOOLS.has(name), `${name} sent an image`);
        assert.equal(image.mimeType, "image/png");
        const png = Buffer.from(image.data, "base64");
        assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE);
        // The IHDR chunk: the size the structured result says.
        const { width, height } = r.structuredContent;
        assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [width, height]);
      }
      assert.equal(images.length, IMAGE_TOOLS.has(name) ? 1 : 0, JSON.stringify(r.content));
      const rest = { ...r, content: r.content.filter((block) => block.type !== "image") };
      assert.deepEqual(JSON.parse(text(rest)), r.structuredContent, "the text block mirrors structuredContent");
      return r.structuredContent;
    };

    let s = await call("get_arm_state", {});
    assert.deepEqual(s.position, HOME);
    assert.equal(s.objects.length, 3);
    const moved = await call("move_arm_to_pose", { x: 400, y: 0, z: 200 });
    assert.deepEqual(moved, { position: { x: 400, y: 0, z: 200 }, distance: 223.6, duration: 0.89 });
    const grasp = await call("grasp_object_force_control", { target_position: CUBE });
    assert.equal(grasp.object, "red_cube");
    assert.equal(grasp.applied_force, 15);
    const view = await call("capture_image", { camera: "wrist" });
    assert.deepEqual([view.camera, view.width, view.height, view.mm_per_px], ["wrist", 360, 360, 1]);
    const legend = Object.fromEntries(view.legend.map((e) => [e.name, e.drawn_as]));
    assert.match(legend.red_cube, /held, not on the table$/);
    assert.match(legend.gripper, /closed on red_cube$/);
    const reading = await call("read_ft_sensor", { axes: ["Fz"] });
    assert.ok(Math.abs(reading.readings[0].value + 0.2 * 9.81) < 0.2, JSON.stringify(reading));
    const path = [
      { x: 400, y: 0, z: 200 },
      { x: 400, y: 300, z: 200 },
      { x: 200, y: 300, z: 200 },
    ];
    // From where the arm holds the cube (400, 0, 25): up 175 mm, then 300 mm and 200 mm.
    const plan = await call("plan_trajectory", { waypoints: path });
    assert.equal(plan.total_length, 675);
    const followed = await call("follow_trajectory", { waypoints: path, speed: 1 });
    assert.deepEqual(followed.position, { x: 200, y: 300, z: 200 });
    const released = await call("release_object", {});
    assert.equal(released.object, "red_cube");
    const stopped = await call("stop_arm", {});
    assert.equal(stopped.interrupted_motion, false);
    s = await call("get_arm_state", {});
    assert.equal(s.gripper.closed, false);
    const described = await call("describe_tool", { name: "move_arm_to_pose" });
    assert.deepEqual(described.inputSchema, tools[0].inputSchema);
    assert.deepEqual([...called].sort(), [...TOOLS].sort());
  });
});

const INVALID = [
  ["grasp_object_force_control", { target_position: CUBE, force: 100 }, "force", "must be between 5 and 30 N, got 100"],
  ["grasp_object_force_control", { target_position: CUBE, force: "15N" }, "force", 'must be a number in N, got string "15N"'],
  ["grasp_object_force_control", { target_position: CUBE, force: true }, "force", "must be a number in N, got true"],
  ["grasp_object_force_control", {}, "target_position", "required argument is missing"],
  ["grasp_object_force_control", { target_position: CUBE, grip: 10 }, "grip", "unknown argument"],
  ["grasp_object_force_control", { target_position: CUBE, grasp_strategy: "magnetic" }, "grasp_strategy", "must be one of"],
  ["grasp_object_force_control", { target_position: { x: 400, y: 0 } }, "target_position.z", "required field is missing"],
  ["move_arm_to_pose", { x: 9000, y: 0, z: 300 }, "x", "must be between -850 and 850 mm, got 9000"],
  ["move_arm_to_pose", { x: null, y: 0, z: 300 }, "x", "must be a number in mm, got null"],
  ["plan_trajectory", { waypoints: [{ x: 400, y: 0, z: 200 }, { x: 400, y: 0 }] }, "waypoints[1].z", "required field is missing"],
  ["read_ft_sensor", { axes: ["Fx", "Fw"] }, "axes[1]", "must be one of"],
  ["get_arm_state", { verbose: true }, "verbose", "unknown argument; allowed: jmespath, summary"],
  ["describe_tool", { name: "move_arm" }, "name", 'must be one of "move_arm_to_pose"'],
];

test("invalid arguments are isError results naming the field, and nothing runs", async () => {
  await withClient(async (client) => {
    await client.listTools();
    const initial = await state(client);
    for (const [name, args, field, message] of INVALID) {
      const r = await client.callTool({ name, arguments: args });
      const label = `${name} ${JSON.stringify(args)}`;
      assert.equal(r.isError, true, label);
      assert.equal(r.structuredContent, undefined, label);
      const lines = text(r).split("\n");
      assert.ok(lines[0].startsWith(`Invalid arguments for tool \`${name}\` (`), lines[0]);
      assert.equal(lines.at(-1), FIX);
      assert.ok(
        lines.some((l) => l.startsWith(`- ${field}: ${message}`)),
        `${label}: no "- ${field}: ${message}" in\n${text(r)}`,
      );
      assert.deepEqual(await state(client), initial, label);
    }
  });
});

test("an unknown tool is a JSON-RPC error naming the tools", async () => {
  await withClient(async (client) => {
    await assert.rejects(client.callTool({ name: "move_arm", arguments: {} }), (e) => {
      assert.equal(e.code, -32602);
      assert.match(e.message, /unknown tool `move_arm`; available tools: move_arm_to_pose/);
      return true;
    });
    assert.deepEqual((await state(client)).position, HOME);
  });
});

test("concurrent calls each get their own answer", async () => {
  await withClient(async (client) => {
    const ks = Array.from({ length: 30 }, (_, i) => i + 1);
    // The arm queues 16 callers; a call past them is refused at once and may be made again.
    const busy = "Tool `plan_trajectory` was not run: 16 calls are already waiting";
    const plan = async (k) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const r = await client.callTool({
          name: "plan_trajectory",
          arguments: { waypoints: [{ x: 400, y: 0, z: 200 }, { x: 400, y: 10 * k, z: 200 }] },
        });
        if (!(r.isError && r.content[0].text.startsWith(busy))) return r;
        assert.equal(r._meta["io.toolwright/retryable"], true);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`plan ${k} refused 100 times`);
    };
    const results = await Promise.all(ks.map(plan));
    results.forEach((r, i) => {
      assert.ok(!r.isError, JSON.stringify(r));
      // From home (300, 0, 400) to the first waypoint, then 10 k mm.
      assert.equal(r.structuredContent.total_length, Math.round((Math.hypot(100, 200) + 10 * ks[i]) * 10) / 10);
    });
  });
});

// Results a model can afford: each answer below went through the SDK's callTool, which rejects
// structuredContent that does not match the tool's outputSchema, and is checked again with Ajv.
test("projections, summaries, an invalid projection and an over-budget result are accepted", async () => {
  const ajv = strictAjv();
  const accepted = (tools, name, r) => {
    const validate = ajv.compile(tools.find((t) => t.name === name).outputSchema);
    assert.ok(validate(r.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
    return r.structuredContent;
  };
  await withClient(async (client) => {
    const { tools } = await client.listTools();
    let r = await client.callTool({ name: "read_ft_sensor", arguments: { jmespath: "readings[?axis=='Mz'].unit" } });
    assert.ok(!r.isError, JSON.stringify(r));
    assert.deepEqual(accepted(tools, "read_ft_sensor", r), { projection: ["N·m"] });
    assert.deepEqual(JSON.parse(text(r)), ["N·m"], "the text block is the projected value");
    r = await client.callTool({ name: "get_arm_state", arguments: { jmespath: "gripper.closed" } });
    assert.deepEqual(accepted(tools, "get_arm_state", r), { projection: false });

    r = await client.callTool({ name: "get_arm_state", arguments: { summary: true } });
    const summary = accepted(tools, "get_arm_state", r).summary;
    assert.equal(summary.objects.count, 3);
    assert.equal(summary.objects.samples.length, 3);

    // Does not parse: an isError envelope, before the tool runs.
    r = await client.callTool({ name: "get_arm_state", arguments: { jmespath: "objects[0" } });
    assert.equal(r.isError, true);
    const envelope = accepted(tools, "get_arm_state", r);
    assert.match(envelope._jmespath_error, /^Parse error/);
    assert.deepEqual(envelope.original_keys, ["position", "gripper", "moving", "objects"]);
  });
  await withClient(async (client) => {
    const { tools } = await client.listTools();
    let r = await client.callTool({ name: "find_parts", arguments: {} });
    const envelope = accepted(tools, "find_parts", r);
    assert.equal(envelope._budget_exceeded, true);
    assert.equal(envelope.budget_bytes, 512);
    assert.ok(envelope.actual_bytes > 512, JSON.stringify(envelope));
    r = await client.callTool({ name: "find_parts", arguments: { jmespath: "length(parts)" } });
    assert.deepEqual(accepted(tools, "find_parts", r), { projection: 6 });
  }, CATALOG);
});

test("on 2025-11-25 over HTTP a call in a session answers without a delayed-ACK stall (TCP_NODELAY)", async () => {
  assert.ok(existsSync(BIN), `${BIN} does not exist: cargo build --examples`);
  const { url, child } = await serveForTiming(BIN);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "toolwright-interop", version: "0.1.0" });
  try {
    await client.connect(transport);
    assert.equal(transport.protocolVersion, "2025-11-25");
    assert.ok(transport.sessionId, "the server gave the client a session");
    const call = (params, onprogress) => client.callTool(params, CallToolResultSchema, { onprogress });
    const { quartile, all } = await upperQuartileMs(call, assert);
    assert.ok(quartile < STALL_BOUND_MS, `upper quartile ${quartile.toFixed(2)} ms per call: ${all}`);
  } finally {
    await client.close().catch(() => {});
    child.kill();
  }
});
