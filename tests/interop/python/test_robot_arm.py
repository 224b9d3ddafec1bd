"""The robot_arm example driven over stdio by the official Python MCP SDK (PyPI `mcp`).

Runs unchanged against the 1.x line (`ClientSession` + `initialize`) and the 2.x line (`mcp.Client`,
both in its default `auto` mode, which probes `server/discover` first, and in `legacy` mode, which
sends `initialize`). Every test starts its own server process.

    ROBOT_ARM_BIN=target/debug/examples/robot_arm python -m pytest tests/interop/python

ROBOT_ARM_BIN is the built example (`cargo build --example robot_arm`); it defaults to
`target/debug/examples/robot_arm` under the repository root. `.ci/run` runs this file once per
pinned requirements file (`requirements-mcp1.txt`, `requirements-mcp2.txt`).
"""

from __future__ import annotations

import asyncio
import base64
import importlib.metadata
import json
import math
import os
import struct
import tempfile
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from jsonschema import Draft202012Validator

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MCP_VERSION = importlib.metadata.version("mcp")
MCP_MAJOR = int(MCP_VERSION.split(".")[0])

REPO = Path(__file__).resolve().parents[3]
BIN = Path(os.environ.get("ROBOT_ARM_BIN", REPO / "target" / "debug" / "examples" / "robot_arm"))

# How each SDK line connects: 1.x has one way; 2.x probes server/discover ("auto") or not ("legacy").
MODES = ["initialize"] if MCP_MAJOR == 1 else ["auto", "legacy"]

TOOLS = [
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
]

# The tools that return an image block (a PNG) after their JSON.
IMAGE_TOOLS = {"capture_image"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

HOME = {"x": 300.0, "y": 0.0, "z": 400.0}
CUBE = {"x": 400, "y": 0, "z": 25}
FIX = "The tool did not run. Fix the arguments above and call it again."

# Every test gets this long, connection included; a hung server fails the test instead of CI.
TEST_TIMEOUT_S = 60


def attr(obj: Any, *names: str) -> Any:
    """A field under its 1.x name (camelCase) or its 2.x name (snake_case)."""
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    raise AttributeError(f"{type(obj).__name__} has none of {names}")


@dataclass
class Result:
    """A tools/call result, the same for both SDK lines."""

    is_error: bool
    structured: Any
    texts: list[str]
    # The decoded bytes of each image block (PNG files; only the IMAGE_TOOLS send them).
    images: list[bytes]

    @property
    def text(self) -> str:
        assert len(self.texts) == 1, f"expected one text block, got {self.texts}"
        return self.texts[0]


class Conn:
    """A connected client session, the same for both SDK lines."""

    def __init__(self, session: Any, *, protocol_version: str, server_info: Any, instructions: Any,
                 capabilities: Any, discovered: bool, errlog: Any = None):
        self._session = session
        self._errlog = errlog
        self.protocol_version = protocol_version
        self.server_info = server_info
        self.instructions = instructions
        self.capabilities = capabilities
        self.discovered = discovered

    async def list_tools(self) -> list[Any]:
        return list((await self._session.list_tools()).tools)

    async def call(self, name: str, arguments: dict[str, Any]) -> Result:
        r = await self._session.call_tool(name, arguments)
        texts = [block.text for block in r.content if getattr(block, "type", None) == "text"]
        images = []
        for block in r.content:
            if getattr(block, "type", None) != "image":
                continue
            assert name in IMAGE_TOOLS, f"{name} sent an image: {r.content}"
            assert attr(block, "mimeType", "mime_type") == "image/png", block
            data = base64.b64decode(block.data, validate=True)
            assert data.startswith(PNG_SIGNATURE), data[:16]
            images.append(data)
        assert len(texts) + len(images) == len(r.content), f"content neither text nor image: {r.content}"
        return Result(
            is_error=bool(attr(r, "isError", "is_error")),
            structured=attr(r, "structuredContent", "structured_content"),
            texts=texts,
            images=images,
        )

    async def state(self) -> dict[str, Any]:
        r = await self.call("get_arm_state", {})
        assert not r.is_error, r
        return r.structured

    def server_log(self) -> str:
        """What the server wrote on stderr so far."""
        self._errlog.flush()
        with open(self._errlog.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    async def call_then_cancel(self, name: str, arguments: dict[str, Any], started: Any) -> None:
        """Starts a call, waits until `started()` returns, then cancels the call through the SDK:
        2.x sends `notifications/cancelled` itself when a caller abandons a request; 1.x has no
        such path, so the test sends the SDK's `CancelledNotification` for the request's id."""
        async with anyio.create_task_group() as tg:
            if MCP_MAJOR == 1:
                from mcp import types

                request_id: list[int] = []

                async def one() -> None:
                    # 1.x numbers requests in order; this call takes the next number.
                    request_id.append(self._session._request_id)
                    await self._session.call_tool(name, arguments)

                tg.start_soon(one)
                await started()
                await self._session.send_notification(types.ClientNotification(types.CancelledNotification(
                    params=types.CancelledNotificationParams(requestId=request_id[0], reason="the user changed their mind"),
                )))
            else:
                tg.start_soon(self._session.call_tool, name, arguments)
                await started()
            tg.cancel_scope.cancel()


@asynccontextmanager
async def connect(mode: str, env: dict[str, str] | None = None, bin: Path = BIN):
    assert bin.is_file(), f"{bin} does not exist: run `cargo build --examples` or set ROBOT_ARM_BIN"
    params = StdioServerParameters(
        command=str(bin),
        # A test rig: no one confirms the motions (test_safe_actuation.py covers confirmation).
        args=["serve", "--confirm=off"],
        env={"ROBOT_ARM_TIME_SCALE": "0", "RUST_LOG": "warn", **(env or {})},
    )
    with tempfile.NamedTemporaryFile("w+") as errlog:
        try:
            if MCP_MAJOR == 1:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        init = await session.initialize()
                        yield Conn(
                            session,
                            protocol_version=init.protocolVersion,
                            server_info=init.serverInfo,
                            instructions=init.instructions,
                            capabilities=init.capabilities,
                            discovered=False,
                            errlog=errlog,
                        )
            else:
                from mcp import Client

                # The server is a subprocess; `errlog` only exists on the stdio transport.
                transport = stdio_client(params, errlog=errlog)
                async with Client(transport, mode=mode) as client:
                    yield Conn(
                        client,
                        protocol_version=client.protocol_version,
                        server_info=client.server_info,
                        instructions=client.instructions,
                        capabilities=client.server_capabilities,
                        discovered=client.session.discover_result is not None,
                        errlog=errlog,
                    )
        except BaseException:
            errlog.seek(0)
            server_log = errlog.read()
            if server_log:
                print(f"--- robot_arm stderr ---\n{server_log}")
            raise


def run(coro_fn, mode: str, env: dict[str, str] | None = None, bin: Path = BIN) -> None:
    """Runs an async test body against a fresh server (with these environment variables; the
    robot arm unless `bin` names another example), with a deadline."""

    async def main() -> None:
        with anyio.fail_after(TEST_TIMEOUT_S):
            async with connect(mode, env, bin) as conn:
                await coro_fn(conn)

    asyncio.run(main())


def check_output(tool: dict[str, Any], result: Result) -> dict[str, Any]:
    """A successful result: structuredContent valid against the tool's outputSchema, mirrored as text."""
    assert not result.is_error, result
    schema = tool["outputSchema"]
    Draft202012Validator(schema).validate(result.structured)
    assert json.loads(result.text) == result.structured, "the text block mirrors structuredContent"
    return result.structured


def tool_dicts(tools: list[Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for t in tools:
        out[t.name] = {
            "inputSchema": attr(t, "inputSchema", "input_schema"),
            "outputSchema": attr(t, "outputSchema", "output_schema"),
            "annotations": t.annotations,
        }
    return out


# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_handshake(mode: str) -> None:
    async def body(conn: Conn) -> None:
        print(f"mcp {MCP_VERSION} mode={mode}: protocol {conn.protocol_version}, discover={conn.discovered}")
        assert conn.server_info is not None
        assert conn.server_info.name == "toolwright-examples"
        assert conn.server_info.version == "0.1.0"
        assert conn.capabilities.tools is not None, "the server announces tools"
        assert conn.instructions and "get_arm_state" in conn.instructions
        if MCP_MAJOR == 1:
            from mcp.types import LATEST_PROTOCOL_VERSION

            # The server agreed to the newest version this client proposes.
            assert conn.protocol_version == LATEST_PROTOCOL_VERSION
            assert not conn.discovered
        else:
            from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

            if mode == "auto":
                # rmcp answers server/discover, so the 2.x client stays on the modern protocol.
                assert conn.discovered, "server/discover was answered"
                assert conn.protocol_version in MODERN_PROTOCOL_VERSIONS
            else:
                assert not conn.discovered
                assert conn.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_every_schema_is_valid_json_schema_2020_12(mode: str) -> None:
    # The meta-schema check is not vacuous: it rejects a broken schema.
    with pytest.raises(jsonschema.SchemaError):
        Draft202012Validator.check_schema({"type": "object", "properties": {"x": {"type": "pointer"}}})
    with pytest.raises(jsonschema.SchemaError):
        Draft202012Validator.check_schema({"type": "number", "minimum": "5"})

    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        assert list(tools) == TOOLS
        for name, tool in tools.items():
            schema = tool["inputSchema"]
            Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object", name
            assert schema.get("additionalProperties") is False, name
            rendered = json.dumps(schema)
            assert "$ref" not in rendered and "$defs" not in rendered, name
            out = tool["outputSchema"]
            assert out is not None, f"{name} has an outputSchema"
            Draft202012Validator.check_schema(out)
            assert out["type"] == "object", name
        # The published constraints, as the client sees them.
        force = tools["grasp_object_force_control"]["inputSchema"]["properties"]["force"]
        assert (force["minimum"], force["maximum"], force["default"], force["x-unit"]) == (5, 30, 15, "N")
        waypoints = tools["plan_trajectory"]["inputSchema"]["properties"]["waypoints"]
        assert (waypoints["minItems"], waypoints["maxItems"]) == (1, 100)
        assert tools["get_arm_state"]["annotations"] is not None
        assert attr(tools["get_arm_state"]["annotations"], "readOnlyHint", "read_only_hint") is True

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_with_valid_arguments(mode: str) -> None:
    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        called = set()

        async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
            called.add(name)
            return check_output(tools[name], await conn.call(name, args))

        state = await call("get_arm_state", {})
        assert state["position"] == HOME
        assert [o["name"] for o in state["objects"]] == ["red_cube", "glass_bottle", "sponge"]
        assert state["gripper"] == {"closed": False, "force": 0.0}

        moved = await call("move_arm_to_pose", {"x": 400, "y": 0, "z": 200})
        assert moved == {"position": {"x": 400.0, "y": 0.0, "z": 200.0}, "distance": 223.6, "duration": 0.89}
        moved = await call("move_arm_to_pose", {"x": 400, "y": 0, "z": 200, "speed": 1.0})
        assert moved["distance"] == 0.0

        grasp = await call("grasp_object_force_control", {"target_position": CUBE})
        assert grasp["object"] == "red_cube"
        assert grasp["applied_force"] == 15.0, "the default force was applied"
        assert grasp["strategy"] == "parallel"

        # The cameras see the cube in the gripper: the view as JSON, then a PNG of the size it says.
        for camera in ["overhead", "wrist"]:
            called.add("capture_image")
            r = await conn.call("capture_image", {"camera": camera})
            view = check_output(tools["capture_image"], r)
            assert view["camera"] == camera
            assert len(r.images) == 1, r
            width, height = struct.unpack(">II", r.images[0][16:24])  # the IHDR chunk
            assert (width, height) == (view["width"], view["height"]) == (360, 360)
            legend = {e["name"]: e for e in view["legend"]}
            assert legend["red_cube"]["drawn_as"].endswith("held, not on the table"), legend
            assert legend["gripper"]["drawn_as"].endswith("closed on red_cube"), legend

        reading = await call("read_ft_sensor", {"axes": ["Fz", "Mx"], "filter": "raw"})
        assert reading["filter"] == "raw"
        assert [r["axis"] for r in reading["readings"]] == ["Fz", "Mx"]
        assert [r["unit"] for r in reading["readings"]] == ["N", "N·m"]
        reading = await call("read_ft_sensor", {})
        assert reading["filter"] == "kalman"
        assert len(reading["readings"]) == 6
        fz = reading["readings"][2]["value"]
        assert abs(fz + 0.2 * 9.81) < 0.2, f"the held cube pulls down on Fz: {fz}"

        # From where the arm holds the cube: up 175 mm, then 300 mm and 200 mm.
        path = [{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 300, "z": 200}, {"x": 200, "y": 300, "z": 200}]
        plan = await call("plan_trajectory", {"waypoints": path})
        assert plan["start"] == {"x": 400.0, "y": 0.0, "z": 25.0}
        assert plan["total_length"] == 675.0
        assert [(s["to"], s["length"]) for s in plan["segments"]] == [(0, 175.0), (1, 300.0), (2, 200.0)]
        run_ = await call("follow_trajectory", {"waypoints": path, "speed": 1.0})
        assert run_["reached_waypoints"] == 3 and run_["distance"] == 675.0, run_
        assert run_["position"] == {"x": 200.0, "y": 300.0, "z": 200.0}

        released = await call("release_object", {})
        assert released["object"] == "red_cube"
        assert released["position"] == {"x": 200.0, "y": 300.0, "z": 200.0}  # where the path ended

        stopped = await call("stop_arm", {})
        assert stopped["interrupted_motion"] is False

        state = await call("get_arm_state", {})
        assert state["gripper"]["closed"] is False
        assert len(state["objects"]) == 3

        described = await call("describe_tool", {"name": "move_arm_to_pose"})
        assert described["name"] == "move_arm_to_pose"
        assert described["inputSchema"] == tools["move_arm_to_pose"]["inputSchema"]
        assert called == set(TOOLS), f"not called: {set(TOOLS) - called}"

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_lax_coercions_over_the_wire(mode: str) -> None:
    async def body(conn: Conn) -> None:
        r = await conn.call("move_arm_to_pose", {"x": "400", "y": 0, "z": "200.5", "speed": None})
        assert not r.is_error, r
        assert r.structured["position"] == {"x": 400.0, "y": 0.0, "z": 200.5}
        assert r.structured["duration"] == 0.89, "speed null is the default 0.5 (223.2 mm at 250 mm/s)"

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_tool_errors_are_is_error_results(mode: str) -> None:
    async def body(conn: Conn) -> None:
        # Within every per-axis range, beyond the reach: the envelope refuses it before the body
        # runs (test_envelope.py words it all).
        r = await conn.call("move_arm_to_pose", {"x": 800, "y": 800, "z": 100})
        assert r.is_error
        assert r.structured is None
        assert r.text.startswith("Motion of `move_arm_to_pose` refused by the envelope of `arm`"), r.text
        assert "outside the allowed sphere `reach`" in r.text, r.text
        # The body's own error, with its hint.
        r = await conn.call("grasp_object_force_control", {"target_position": CUBE, "timeout": 1})
        assert r.is_error
        assert r.structured is None
        assert r.text.startswith("the grasp would take 2.4 s (approach 1.6 s + closing 0.8 s), longer than the timeout of 1 s"), r.text
        assert "\nHint: raise timeout, or move closer with move_arm_to_pose first" in r.text, r.text
        r = await conn.call("release_object", {})
        assert r.is_error
        # Refused by the tool's check, before the body runs.
        assert r.text.startswith("`release_object` did not run: the gripper is empty: there is nothing to release"), r.text
        assert (await conn.state())["position"] == HOME

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_unknown_tool_is_a_json_rpc_error(mode: str) -> None:
    async def body(conn: Conn) -> None:
        with pytest.raises(Exception) as caught:
            await conn.call("move_arm", {})
        error = getattr(caught.value, "error", None)
        assert error is not None, f"not an MCP error: {caught.value!r}"
        assert error.code == -32602
        assert "unknown tool `move_arm`" in error.message
        assert "move_arm_to_pose" in error.message
        # The session still works.
        assert (await conn.state())["position"] == HOME

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_concurrent_calls_each_get_their_own_answer(mode: str) -> None:
    async def body(conn: Conn) -> None:
        results: dict[int, Result] = {}

        refusals = 0

        async def one(k: int) -> None:
            nonlocal refusals
            waypoints = [{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 10 * k, "z": 200}]
            for _ in range(100):
                r = await conn.call("plan_trajectory", {"waypoints": waypoints})
                # The arm queues 16 callers; a call past them is refused at once, and may retry.
                if r.is_error and r.text.startswith("Tool `plan_trajectory` was not run: 16 calls are already waiting"):
                    refusals += 1
                    await anyio.sleep(0.01)
                    continue
                results[k] = r
                return

        async with anyio.create_task_group() as tg:
            for k in range(1, 31):
                tg.start_soon(one, k)
        assert sorted(results) == list(range(1, 31)), f"{refusals} refusals"
        for k, r in results.items():
            assert not r.is_error, r
            # From home (300, 0, 400) to the first waypoint, then 10 k mm.
            assert r.structured["total_length"] == round(math.hypot(100, 200) + 10.0 * k, 1), (k, r.structured)

    run(body, mode)


# (tool, arguments, path of the violation, start of its message)
INVALID_CALLS = [
    ("grasp_object_force_control", {"target_position": CUBE, "force": 100}, "force",
     "must be between 5 and 30 N, got 100"),
    ("grasp_object_force_control", {"target_position": CUBE, "force": 4.999}, "force",
     "must be between 5 and 30 N, got 4.999"),
    ("grasp_object_force_control", {"target_position": CUBE, "force": "15N"}, "force",
     'must be a number in N, got string "15N" (hint: send a bare number in N, e.g. 15)'),
    ("grasp_object_force_control", {"target_position": CUBE, "force": True}, "force",
     "must be a number in N, got true"),
    ("grasp_object_force_control", {"target_position": CUBE, "timeout": 0}, "timeout",
     "must be between 1 and 60 s, got 0"),
    ("grasp_object_force_control", {}, "target_position",
     "required argument is missing; expected an object with fields x, y, z"),
    ("grasp_object_force_control", {"target_position": CUBE, "grip": 10}, "grip",
     "unknown argument; allowed: target_position, force, grasp_strategy, timeout"),
    ("grasp_object_force_control", {"target_position": CUBE, "grasp_strategy": "magnetic"}, "grasp_strategy",
     'must be one of "parallel", "suction", "adaptive", got "magnetic"'),
    ("grasp_object_force_control", {"target_position": CUBE, "grasp_strategy": "Suction"}, "grasp_strategy",
     'must be one of "parallel", "suction", "adaptive", got "Suction" (hint: did you mean "suction"?)'),
    ("grasp_object_force_control", {"target_position": {"x": "a", "y": 0, "z": 25}}, "target_position.x",
     'must be a number in mm, got string "a"'),
    ("grasp_object_force_control", {"target_position": {"x": 400, "y": 0}}, "target_position.z",
     "required field is missing; expected a number in mm"),
    ("grasp_object_force_control", {"target_position": {"x": 400, "y": 0, "z": 25, "w": 1}}, "target_position.w",
     "unknown field; allowed: x, y, z"),
    ("grasp_object_force_control", {"target_position": [400, 0, 25]}, "target_position",
     "must be an object, got an array"),
    ("move_arm_to_pose", {"x": 9000, "y": 0, "z": 300}, "x", "must be between -850 and 850 mm, got 9000"),
    ("move_arm_to_pose", {"x": 400, "z": 300}, "y", "required argument is missing; expected a number in mm"),
    ("move_arm_to_pose", {"x": None, "y": 0, "z": 300}, "x", "must be a number in mm, got null"),
    ("move_arm_to_pose", {"x": 400, "y": 0, "z": 300, "speed": 0}, "speed", "must be between 0.1 and 1, got 0"),
    ("move_arm_to_pose", {"x": 400, "y": 0, "z": {"mm": 300}}, "z", "must be a number in mm, got an object"),
    ("plan_trajectory", {"waypoints": []}, "waypoints", "must have at least 1 items, got 0"),
    ("plan_trajectory", {"waypoints": [{"x": 400, "y": 0, "z": 200}], "execute": True}, "execute",
     "unknown argument"),
    ("plan_trajectory", {"waypoints": [{"x": 400, "y": 0, "z": 200}] * 101}, "waypoints",
     "must have at most 100 items, got 101"),
    ("plan_trajectory", {"waypoints": [{"x": 400, "y": 0, "z": 200}, {"x": 400, "y": 0}]}, "waypoints[1].z",
     "required field is missing; expected a number in mm"),
    ("plan_trajectory", {"waypoints": "400,0,200;400,300,200"}, "waypoints", "must be an array"),
    ("read_ft_sensor", {"axes": ["Fx", "Fw"]}, "axes[1]",
     'must be one of "Fx", "Fy", "Fz", "Mx", "My", "Mz", got "Fw"'),
    ("read_ft_sensor", {"axes": []}, "axes", "must have at least 1 items, got 0"),
    ("read_ft_sensor", {"filter": "median"}, "filter",
     'must be one of "raw", "kalman", "moving_average", got "median"'),
    ("get_arm_state", {"verbose": True}, "verbose", "unknown argument; allowed: jmespath, summary"),
    ("release_object", {"force": 1}, "force", "unknown argument; this tool takes no arguments"),
    ("stop_arm", {"now": "yes"}, "now", "unknown argument; this tool takes no arguments"),
    ("describe_tool", {"name": "move_arm"}, "name", 'must be one of "move_arm_to_pose"'),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "tool,args,path,message",
    INVALID_CALLS,
    ids=[f"{t}-{p}-{i}" for i, (t, _, p, _) in enumerate(INVALID_CALLS)],
)
def test_invalid_arguments_are_refused_naming_the_field(
    mode: str, tool: str, args: dict[str, Any], path: str, message: str
) -> None:
    async def body(conn: Conn) -> None:
        before = await conn.state()
        r = await conn.call(tool, args)
        assert r.is_error, f"{tool} {args} should be refused: {r}"
        assert r.structured is None
        lines = r.text.split("\n")
        assert lines[0].startswith(f"Invalid arguments for tool `{tool}` ("), r.text
        assert lines[-1] == FIX, r.text
        assert any(line.startswith(f"- {path}: {message}") for line in lines[1:-1]), r.text
        # The body did not run (the arm did not move, nothing was grasped) and the server still answers.
        assert await conn.state() == before

    run(body, mode)


# ------------------------------------------------------------------------------------------------
# Calls that end early: the arm is halted once and stays usable


# Safe-stop log lines the server writes at `RUST_LOG=info`.
def safe_stops(log: str) -> int:
    return sum(1 for line in log.splitlines() if "safe stop" in line and 'resource=arm' in line)


def halted_at(text: str) -> tuple[float, float, float]:
    start = text.index("halted at (") + len("halted at (")
    x, y, z = text[start:text.index(")", start)].split(", ")
    return float(x), float(y), float(z)


@pytest.mark.parametrize("mode", MODES)
def test_a_motion_past_its_deadline_is_halted_once_and_the_arm_stays_usable(mode: str) -> None:
    # 1/50 of real time (the 30 s deadline is 600 ms); every motion takes 40 times its estimate.
    env = {"ROBOT_ARM_TIME_SCALE": "0.02", "ROBOT_ARM_MOTOR_LAG": "40", "RUST_LOG": "info"}

    async def body(conn: Conn) -> None:
        r = await conn.call("move_arm_to_pose", {"x": -600, "y": 0, "z": 300, "speed": 0.5})
        assert r.is_error, r
        assert r.text.startswith(
            "Tool `move_arm_to_pose` did not finish within its 600 ms deadline; it was told to stop and returned "
        ), r.text
        assert "saying: motion stopped at (" in r.text, r.text
        assert ". Safe stop of `arm`: halted at (" in r.text, r.text
        state = await conn.state()
        assert state["moving"] is False
        at = state["position"]
        assert all(abs(a - b) <= 1 for a, b in zip((at["x"], at["y"], at["z"]), halted_at(r.text))), (at, r.text)
        assert -600 < at["x"] < 300, at
        r = await conn.call("move_arm_to_pose", {"x": at["x"] + 10, "y": at["y"], "z": at["z"], "speed": 1.0})
        assert not r.is_error, r
        assert safe_stops(conn.server_log()) == 1, conn.server_log()

    run(body, mode, env)


@pytest.mark.parametrize("mode", MODES)
def test_a_cancelled_motion_is_halted_once_and_the_arm_stays_usable(mode: str) -> None:
    # 1/20 of real time: 900 mm at 50 mm/s is an 18 s (0.9 s) motion.
    env = {"ROBOT_ARM_TIME_SCALE": "0.05", "RUST_LOG": "info"}

    async def body(conn: Conn) -> None:
        async def moving() -> None:
            for _ in range(400):
                if (await conn.state())["moving"]:
                    await anyio.sleep(0.1)
                    return
                await anyio.sleep(0.005)
            raise AssertionError("the motion never started")

        await conn.call_then_cancel("move_arm_to_pose", {"x": -600, "y": 0, "z": 400, "speed": 0.1}, moving)
        for _ in range(400):
            if safe_stops(conn.server_log()) >= 1:
                break
            await anyio.sleep(0.005)
        state = await conn.state()
        assert state["moving"] is False, state
        assert -600 < state["position"]["x"] < 300, state
        r = await conn.call("move_arm_to_pose", {"x": 300, "y": 0, "z": 400, "speed": 1.0})
        assert not r.is_error, r
        assert r.structured["position"] == HOME
        log = conn.server_log()
        assert safe_stops(log) == 1, log
        assert "telling the tool to stop" in log and "reason=Client" in log, log

    run(body, mode, env)


@pytest.mark.parametrize("mode", MODES)
def test_a_motion_that_cannot_finish_in_time_is_refused_before_it_starts(mode: str) -> None:
    env = {"ROBOT_ARM_TIME_SCALE": "0.05"}

    async def body(conn: Conn) -> None:
        r = await conn.call("move_arm_to_pose", {"x": 600, "y": -400, "z": 300, "speed": 1.0})
        assert not r.is_error, r
        # One straight motion travels at most 1000 mm (the envelope's maxStep): 20 s at the slowest
        # speed, within the 30 s deadline. A path of 20 legs of 800 mm at full speed is not.
        zigzag = [{"x": 600, "y": 400 if i % 2 == 0 else -400, "z": 300} for i in range(20)]
        r = await conn.call("follow_trajectory", {"waypoints": zigzag, "speed": 1.0})
        assert r.is_error, r
        assert r.text.startswith(
            "this path (16000 mm at speed 1) would take 32.0 s, and the call's deadline leaves "
        ), r.text
        assert r.text.endswith(
            "Hint: raise speed, or split the path into several follow_trajectory calls with fewer waypoints"), r.text
        state = await conn.state()
        assert state["moving"] is False and state["position"] == {"x": 600.0, "y": -400.0, "z": 300.0}, state

    run(body, mode, env)
