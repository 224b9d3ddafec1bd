// The robot arm's envelope (where the `arm` may go, declared once on the resource) through the
// official TypeScript MCP SDK's v2 client (npm @modelcontextprotocol/client, pinned in
// package-lock.json) on protocol 2026-07-28, over stdio and streamable HTTP, against
// `robot_arm serve --confirm=on`:
// - tools/list publishes the envelope in each motion tool's `_meta["io.toolwright/envelope"]`;
// - a motion outside the envelope (beyond the reach, into the camera mast, through it, longer
//   than the most one straight motion may travel, a trajectory with one crossing segment,
//   planned only or executed) is refused, naming the shape and the segment; the arm did not
//   move, and the user was not asked: no `input_required` round, no call of the client's
//   elicitation handler;
// - a target just inside is asked (one `input_required` round, answered through the handler),
//   accepted, and reached.
// test_envelope.py does the same through the Python SDK (1.x and 2.x, both revisions).
//
//   ROBOT_ARM_BIN=target/debug/examples/robot_arm node --test tests/interop/node

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { serveHttp } from "./robot_arm_http.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = process.env.ROBOT_ARM_BIN ?? path.join(REPO, "target/debug/examples/robot_arm");

const HOME = { x: 300, y: 0, z: 400 };
const ENVELOPE_KEY = "io.toolwright/envelope";
const ARM_ENVELOPE = {
  resource: "arm",
  frame: "base",
  unit: "mm",
  toolRadius: 15,
  allow: [
    { name: "reach", sphere: { center: [0, 0, 100], radius: 865 } },
    { name: "above_table", box: { min: [-865, -865, 0], max: [865, 865, 965] } },
  ],
  keepOut: [
    { name: "base_column", sphere: { center: [0, 0, 100], radius: 135 } },
    { name: "camera_mast", cylinder: { center: [-450, 450], radius: 50, zMin: 0, zMax: 1400 } },
  ],
  maxStep: 1000,
};
const WHERE = {
  move_arm_to_pose: { target: ["/x", "/y", "/z"] },
  grasp_object_force_control: { target: ["/target_position/x", "/target_position/y", "/target_position/z"] },
  plan_trajectory: { path: { array: "/waypoints", point: ["/x", "/y", "/z"] } },
  follow_trajectory: { path: { array: "/waypoints", point: ["/x", "/y", "/z"] } },
};
const MAST = "keep-out `camera_mast` (vertical cylinder, axis at (-450, 450) mm, radius 50 mm, z from 0 to 1400 mm)";

const point = (x, y, z) => ({ x, y, z });
const header = (tool) => `Motion of \`${tool}\` refused by the envelope of \`arm\` (frame \`base\`; 1 problem):`;
const footer = (tool) =>
  `\`${tool}\` did not run: nothing moved, and the user was not asked. Change the motion as above and call it again.`;
const question = (p) => `Move the arm to (${p.x} mm, ${p.y} mm, ${p.z} mm) at 0.5 of full speed?`;

const CROSSING = [point(-450, 250, 300), point(-450, 650, 300), point(-200, 650, 300)];
const CROSSING_SEGMENT =
  "- the straight path from waypoint 0 (-450, 250, 300) mm to waypoint 1 (-450, 650, 300) mm " +
  `enters ${MAST}: it goes through it at (-450, 450, 300) mm. ` +
  "Go around it: add a waypoint between them such as (-368, 450, 300) mm.";

// [name, motions accepted first, tool, arguments, the refusal's one problem]
const REFUSALS = [
  ["a target within every per-axis range but outside the reach", [], "move_arm_to_pose", point(800, 800, 100),
    "- the target (800, 800, 100) mm is outside the allowed sphere `reach` (centre (0, 0, 100) mm, radius 865 mm): " +
    "it is 1131.4 mm from the centre, the most allowed is 850 mm with the tool's 15 mm radius. " +
    "The nearest allowed point is (601, 601, 100) mm."],
  ["a target inside the camera mast", [], "move_arm_to_pose", point(-450, 450, 300),
    `- the target (-450, 450, 300) mm is inside ${MAST}. Choose a point clear of it, such as (-368, 450, 300) mm.`],
  ["a grasp inside the camera mast", [], "grasp_object_force_control", { target_position: point(-450, 450, 100) },
    `- the target (-450, 450, 100) mm is inside ${MAST}. Choose a point clear of it, such as (-368, 450, 100) mm.`],
  ["a straight path through the mast with both ends outside it", [point(-450, 250, 300)], "move_arm_to_pose",
    point(-450, 650, 300),
    "- the straight path from the current position (-450, 250, 300) mm to the target (-450, 650, 300) mm " +
    `enters ${MAST}: it goes through it at (-450, 450, 300) mm. ` +
    "Go around it: move first to (-368, 450, 300) mm, then to the target."],
  ["a motion over maxStep (1001.2 mm from home)", [], "move_arm_to_pose", point(-650, -300, 300),
    "- the motion from the current position (300, 0, 400) mm to the target (-650, -300, 300) mm is 1001.2 mm long; " +
    "the most one straight motion may travel is 1000 mm: move there in 2 steps, the first to (-175, -150, 350) mm."],
  ["a trajectory with one crossing segment, planned", [], "plan_trajectory",
    { waypoints: CROSSING }, CROSSING_SEGMENT],
  ["a trajectory with one crossing segment, followed", [], "follow_trajectory",
    { waypoints: CROSSING }, CROSSING_SEGMENT],
];

// Targets just inside the envelope, each reached from home in one motion.
const JUST_INSIDE = [
  ["849 mm from the shoulder", point(0, 849, 100)],
  ["66 mm from the mast's axis", point(-384, 450, 300)],
  ["999.4 mm from home", point(-648, -300, 300)],
];

/** Connects a 2026-07-28 client whose user accepts every question to a fresh
 * `robot_arm serve --confirm=on` over `transport`, and runs `body(c)`. `c.asked` holds the
 * questions its elicitation handler answered, `c.rounds` the `input_required` results it got. */
async function withArm(transport, body) {
  assert.ok(existsSync(BIN), `${BIN} does not exist: cargo build --example robot_arm`);
  const c = new Client(
    { name: "toolwright-interop-v2", version: "0.1.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  c.asked = [];
  c.rounds = 0;
  c.setRequestHandler("elicitation/create", async (request) => {
    c.asked.push(request.params.message);
    return { action: "accept", content: {} };
  });
  let server;
  let wire;
  if (transport === "stdio") {
    wire = new StdioClientTransport({
      command: BIN,
      args: ["serve", "--confirm=on"],
      env: { ROBOT_ARM_TIME_SCALE: "0", RUST_LOG: "warn" },
      stderr: "ignore",
    });
  } else {
    server = await serveHttp(BIN, ["--confirm=on"]);
    wire = new StreamableHTTPClientTransport(new URL(server.url));
  }
  try {
    await c.connect(wire);
    assert.equal(c.getNegotiatedProtocolVersion(), "2026-07-28");
    // Every message from the server passes here on its way to the client: count the rounds.
    const deliver = wire.onmessage;
    wire.onmessage = (message, ...rest) => {
      if (message?.result?.resultType === "input_required") c.rounds++;
      return deliver(message, ...rest);
    };
    await body(c);
  } finally {
    await c.close().catch(() => {});
    server?.child.kill();
  }
}

async function state(c) {
  const result = await c.callTool({ name: "get_arm_state", arguments: {} });
  assert.equal(result.isError ?? false, false, JSON.stringify(result));
  return result.structuredContent;
}

/** A motion the envelope allows: one question, one round, accepted, and the arm is there, at rest. */
async function move(c, to) {
  const [asked, rounds] = [c.asked.length, c.rounds];
  const result = await c.callTool({ name: "move_arm_to_pose", arguments: to });
  assert.equal(result.isError ?? false, false, JSON.stringify(result));
  assert.deepEqual(c.asked.slice(asked), [question(to)]);
  assert.equal(c.rounds - rounds, 1, "one input_required round");
  assert.deepEqual(result.structuredContent.position, to);
  const now = await state(c);
  assert.deepEqual(now.position, to);
  assert.equal(now.moving, false);
}

for (const transport of ["stdio", "http"]) {
  test(`on 2026-07-28 over ${transport} tools/list publishes the envelope of each motion tool`, async () => {
    await withArm(transport, async (c) => {
      const { tools } = await c.listTools();
      const published = Object.fromEntries(
        tools.filter((t) => t._meta?.[ENVELOPE_KEY]).map((t) => [t.name, t._meta[ENVELOPE_KEY]]),
      );
      assert.deepEqual(
        published,
        Object.fromEntries(Object.entries(WHERE).map(([name, where]) => [name, { ...ARM_ENVELOPE, ...where }])),
      );
      // The pointers name published arguments.
      const move = tools.find((t) => t.name === "move_arm_to_pose").inputSchema.properties;
      for (const p of published.move_arm_to_pose.target) assert.ok(p.slice(1) in move, p);
    });
  });

  for (const [name, before, tool, args, problem] of REFUSALS) {
    test(`on 2026-07-28 over ${transport} the envelope refuses ${name} before the user is asked`, async () => {
      await withArm(transport, async (c) => {
        assert.deepEqual((await state(c)).position, HOME);
        for (const to of before) await move(c, to);
        const was = await state(c);
        const [asked, rounds] = [c.asked.length, c.rounds];
        const result = await c.callTool({ name: tool, arguments: args });
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.equal(result.structuredContent, undefined);
        assert.equal(result.content.length, 1);
        assert.deepEqual(result.content[0].text.split("\n"), [header(tool), problem, footer(tool)]);
        assert.equal(c.rounds, rounds, "an input_required round for a motion that cannot run");
        assert.equal(c.asked.length, asked, "the user was asked about a motion that cannot run");
        const now = await state(c);
        assert.deepEqual(now, was);
        assert.equal(now.moving, false);
        // Still usable: a motion inside the envelope is asked and runs.
        await move(c, point(300, 0, 300));
      });
    });
  }

  for (const [name, to] of JUST_INSIDE) {
    test(`on 2026-07-28 over ${transport} a target just inside the envelope (${name}) is asked and reached`, async () => {
      await withArm(transport, async (c) => {
        assert.deepEqual((await state(c)).position, HOME);
        await move(c, to);
        assert.equal(c.asked.length, 1);
      });
    });
  }
}
