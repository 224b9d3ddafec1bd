// What the node tests share about the robot_arm example over streamable HTTP (not a test file:
// `node --test` runs only `*.test.mjs` here): starting a server, and timing calls against the
// 40 ms a small write waiting for a delayed ACK costs (Nagle's algorithm; issue 26).

import { spawn } from "node:child_process";

/** Starts `bin serve --http` (and `args`) on a free loopback port, its motions `timeScale`
 *  times their real length (0: instantaneous); its URL and process. */
export function serveHttp(bin, args = [], timeScale = "0") {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["serve", "--http", "127.0.0.1:0", ...args], {
      env: { ...process.env, ROBOT_ARM_TIME_SCALE: timeScale, RUST_LOG: "warn" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const m = err.match(/serving MCP over streamable HTTP at (\S+)/);
      if (m) resolve({ url: m[1], child });
    });
    child.on("exit", (code) => reject(new Error(`robot_arm exited (${code}): ${err}`)));
  });
}

/** The server the stall shows on: motions long enough that a call's progress notifications
 *  leave in writes of their own (a quick call's head, answer and end leave in one write, which
 *  Nagle's algorithm never holds). No one confirms: a test rig. */
export function serveForTiming(bin) {
  return serveHttp(bin, ["--confirm=off"], "0.05");
}

/** Nagle's algorithm holds a write only while an earlier one is unacknowledged, so which calls
 *  stall depends on the phase of the client's delayed-ACK timer: with `TCP_NODELAY` off, about
 *  half of `upperQuartileMs`'s calls took 44–48 ms and the rest 7–10 ms, on both protocol
 *  revisions (debug build); with it on, the upper quartile is about 9 ms. 20 ms is far outside
 *  noise on either side. */
export const STALL_BOUND_MS = 20;

/** The upper quartile of the times of 32 three-waypoint `follow_trajectory` calls
 *  (after 4 warm-up calls), each checked to have notified its progress; `call(params,
 *  onprogress)` makes one through the SDK under test. Also all the times, as text. */
export async function upperQuartileMs(call, assert) {
  const params = {
    name: "follow_trajectory",
    arguments: {
      waypoints: [{ x: 300, y: 0, z: 200 }, { x: 300, y: 0, z: 210 }, { x: 300, y: 0, z: 200 }],
      speed: 1,
    },
  };
  const times = [];
  for (let i = 0; i < 36; i++) {
    let notified = 0;
    const started = process.hrtime.bigint();
    const result = await call(params, () => notified++);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.ok(notified > 0, "the call notified its progress");
    if (i >= 4) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { quartile: times[(times.length * 3) >> 2], all: times.map((t) => t.toFixed(1)).join(", ") };
}
