"""What the Python client tests share (not a test file): the robot arm's published tools, how to
start it over stdio (the client starts it) and over streamable HTTP, the revision its log shows
each client spoke, and the calls every client makes.

Motions run in real time (the server's default, `ROBOT_ARM_TIME_SCALE` unset): a move from home
(300, 0, 400) to (300, 400, 300) lasts about 1.6 s, and from the cube about 2 s (both straight
paths stay clear of the base column the arm's envelope keeps out; the move to (-400, 0, 300) the
Inspector's test makes from home would cross it after the grasp).

The server logs at `info` with rmcp's own lines (`RUST_LOG=info`): rmcp logs each client's
`initialize`, which tells the revision a client spoke.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[4]
BIN = Path(os.environ.get("ROBOT_ARM_BIN", REPO / "target" / "debug" / "examples" / "robot_arm")).resolve()

# The robot arm's published tools: the one copy the README links (examples/docs/robot_arm).
PUBLISHED = {t["name"]: t for t in json.loads((REPO / "examples/docs/robot_arm/tools.json").read_text())["tools"]}
TOOLS = list(PUBLISHED)

HOME = {"x": 300.0, "y": 0.0, "z": 400.0}
AWAY = {"x": 300.0, "y": 400.0, "z": 300.0}
CUBE = {"x": 400.0, "y": 0.0, "z": 25.0}
MOVE_AWAY = {"x": 300, "y": 400, "z": 300}
OUT_OF_RANGE = {"x": 5000, "y": 0, "z": 300}
# What the refusal of OUT_OF_RANGE says: the field, its allowed range with its unit, the value.
RANGE = "x: must be between -850 and 850 mm, got 5000"
DID_NOT_RUN = "The tool did not run."
UNASKED = "the user could not be asked"
MOVE_QUESTION = "Move the arm to (300 mm, 400 mm, 300 mm) at 0.5 of full speed?"
GRASP_QUESTION = "Grasp the object at {x: 400 mm, y: 0 mm, z: 25 mm} with 15 N (parallel grasp)?"
RELEASE_QUESTION = "Open the gripper and put the held object down where the arm is?"
# 200 mm straight up from the cube.
UP_FROM_CUBE = {"x": 400.0, "y": 0.0, "z": 225.0}
FOLLOW_QUESTION = ("Move the arm along [{x: 400 mm, y: 0 mm, z: 225 mm}] at 1 of full speed "
                   "(1 waypoint, 200 mm in all, about 0.4 s)?")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# One call of every tool a model could make with the tool's strict schema (OpenAI strict mode:
# every property present, none null), in an order that works from home: the reads, the grasp of
# the cube and its release, a path up from the cube (`follow_trajectory`), then `move_arm_to_pose`
# (past 1 s) and `stop_arm`.
STRICT_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("get_arm_state", {"jmespath": "position", "summary": False}),
    ("read_ft_sensor", {"filter": "kalman", "axes": ["Fx", "Fy", "Fz"], "jmespath": "readings[].axis"}),
    ("describe_tool", {"name": "move_arm_to_pose"}),
    ("plan_trajectory", {"waypoints": [HOME, {"x": 300.0, "y": 100.0, "z": 400.0}], "speed": 0.5,
                         "jmespath": "total_length", "summary": False}),
    ("capture_image", {"camera": "overhead"}),
    ("grasp_object_force_control", {"target_position": CUBE, "force": 15.0, "grasp_strategy": "parallel",
                                    "timeout": 10.0}),
    ("release_object", {}),
    ("follow_trajectory", {"waypoints": [UP_FROM_CUBE], "speed": 1.0}),
    ("move_arm_to_pose", {**MOVE_AWAY, "speed": 0.5}),
    ("stop_arm", {}),
]
assert sorted(name for name, _ in STRICT_CALLS) == sorted(TOOLS)


class ServerLog:
    """A file the server's stderr goes to (rmcp logs each client's `initialize` at `info`)."""

    def __init__(self) -> None:
        self.file = tempfile.NamedTemporaryFile("w+", prefix="robot-arm-", suffix=".log")
        self.path = self.file.name

    def text(self) -> str:
        return Path(self.path).read_text(errors="replace")

    def revisions(self) -> list[str]:
        """The protocol revisions the server was spoken to in: an `initialize` names its
        revision; over stdio a client that never initializes is on 2026-07-28 (`server/discover`,
        then the version in each request's `_meta`); over HTTP each 2026-07-28 request is logged
        as a peer of its own, with its revision."""
        log = self.text()
        seen = set(re.findall(
            r'peer_info=Some\(InitializeRequestParams \{.*?protocol_version: ProtocolVersion\("([^"]+)"\)', log))
        if "peer_info=None" in log:
            seen.add("2026-07-28")
        return sorted(seen)

    def client(self) -> tuple[str, str] | None:
        """The name and version the first `initialize` gave (None without one)."""
        m = re.search(r'client_info: Implementation \{ name: "([^"]*)", title: [^,]*, version: "([^"]*)"', self.text())
        return (m.group(1), m.group(2)) if m else None


def stdio_command(log: ServerLog, *flags: str) -> tuple[str, list[str]]:
    """The command and arguments a client starts the server with over stdio: the robot_arm
    binary itself (`exec`), its stderr appended to `log`."""
    assert BIN.exists(), f"{BIN} does not exist: build the robot_arm example or set ROBOT_ARM_BIN"
    script = f'RUST_LOG=info exec "$0" serve "$@" 2>>{shlex.quote(log.path)}'
    return "/bin/sh", ["-c", script, str(BIN), *flags]


class HttpServer:
    """`robot_arm serve --http 127.0.0.1:0 FLAGS`: a free loopback port the system picks."""

    def __init__(self, *flags: str) -> None:
        assert BIN.exists(), f"{BIN} does not exist: build the robot_arm example or set ROBOT_ARM_BIN"
        self.log = ServerLog()
        # Real time: the simulation's own settings, whatever the environment says.
        env = {k: v for k, v in os.environ.items() if not k.startswith("ROBOT_ARM_")}
        env["RUST_LOG"] = "info"
        self.proc = subprocess.Popen([str(BIN), "serve", "--http", "127.0.0.1:0", *flags], env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log.file)
        deadline = time.monotonic() + 30
        while True:
            m = re.search(r"serving MCP over streamable HTTP at (\S+)", self.log.text())
            if m:
                self.url = m.group(1)
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"robot_arm did not start: {self.log.text()}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def assert_moved_away(result: dict[str, Any], seconds: float) -> None:
    """The structured result of the move to AWAY: there, after more than 1 s of motion, and the
    call lasted that long in real time."""
    assert result["position"] == AWAY, result
    assert result["duration"] > 1, result
    assert seconds >= result["duration"], (seconds, result)
