"""Tasks (protocol 2025-11-25, experimental) on the robot_arm example, over stdio, through the
official Python SDK 1.x experimental task client (`session.experimental.call_tool_as_task`,
`get_task`, `get_task_result`, `cancel_task`), with real simulated time. The 2.x line has no
such client: those tests run on the 1.x line only.

And tasks across replicas (protocol 2026-07-28, raw HTTP): two replicas of the conformance
example (no resources) sharing a real Redis; a task created through one is read through the
other while it runs and once it completed.

    ROBOT_ARM_BIN=target/debug/examples/robot_arm python -m pytest tests/interop/python/test_tasks.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import pytest

from test_robot_arm import BIN, MCP_MAJOR, Conn, halted_at, run, safe_stops
from test_replicas import free_port, wait_for_port

# The 1.x line marks its experimental task client deprecated (tasks became an extension).
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def only_1x(test):
    """The experimental task client is the 1.x line's (2.x speaks the tasks extension of
    2026-07-28, tested through rmcp's client in tests/tests/tasks.rs): on 2.x the test is not
    collected, rather than reported skipped."""
    return test if MCP_MAJOR == 1 else None
CONFORMANCE = Path(os.environ.get("CONFORMANCE_BIN", Path(BIN).parent / "conformance"))

TERMINAL = ("completed", "failed", "cancelled")


async def start(conn: Conn, name: str, arguments: dict[str, Any]) -> str:
    created = await conn._session.experimental.call_tool_as_task(name, arguments, ttl=60000)
    assert created.task.status == "working", created
    assert len(created.task.taskId) == 32, created
    assert created.task.pollInterval and created.task.pollInterval > 0, created
    return created.task.taskId


async def ended(conn: Conn, task_id: str) -> Any:
    for _ in range(1000):
        task = await conn._session.experimental.get_task(task_id)
        if task.status in TERMINAL:
            return task
        await anyio.sleep(0.01)
    raise AssertionError(f"task {task_id} never ended")


async def moving(conn: Conn) -> None:
    for _ in range(400):
        if (await conn.state())["moving"]:
            return
        await anyio.sleep(0.005)
    raise AssertionError("the motion never started")


@only_1x
def test_a_motion_started_as_a_task_works_then_completes_with_its_result() -> None:
    # 1/20 of real time: 400 mm at 50 mm/s is an 8 s (0.4 s) motion.
    env = {"ROBOT_ARM_TIME_SCALE": "0.05"}

    async def body(conn: Conn) -> None:
        from mcp.types import CallToolResult

        # Published as protocol 2025-11-25 has it: the capability, and each tool's taskSupport.
        assert conn.capabilities.tasks is not None, conn.capabilities
        assert conn.capabilities.tasks.requests.tools.call is not None, conn.capabilities
        support = {t.name: t.execution.taskSupport if t.execution else None for t in await conn.list_tools()}
        assert support["move_arm_to_pose"] == "optional", support
        assert support["grasp_object_force_control"] == "optional", support
        assert support["follow_trajectory"] == "optional", support
        assert support["plan_trajectory"] is None, support
        assert support["get_arm_state"] is None, support

        task_id = await start(conn, "move_arm_to_pose", {"x": 300, "y": 0, "z": 800, "speed": 0.1})
        working = await conn._session.experimental.get_task(task_id)
        assert working.status == "working", working
        await moving(conn)
        done = await ended(conn, task_id)
        assert done.status == "completed", done
        result = await conn._session.experimental.get_task_result(task_id, CallToolResult)
        assert result.isError is False, result
        assert result.structuredContent["position"] == {"x": 300.0, "y": 0.0, "z": 800.0}, result
        assert result.meta["io.modelcontextprotocol/related-task"] == {"taskId": task_id}, result
        assert (await conn.state())["position"]["z"] == 800.0

    run(body, "initialize", env)


@only_1x
def test_a_cancelled_motion_ends_cancelled_halted_once_and_the_next_one_runs() -> None:
    env = {"ROBOT_ARM_TIME_SCALE": "0.05", "RUST_LOG": "info"}

    async def body(conn: Conn) -> None:
        task_id = await start(conn, "move_arm_to_pose", {"x": -600, "y": 0, "z": 400, "speed": 0.1})
        await moving(conn)
        await anyio.sleep(0.1)
        cancelled = await conn._session.experimental.cancel_task(task_id)
        assert cancelled.status == "cancelled", cancelled
        assert "halted at (" in (cancelled.statusMessage or ""), cancelled
        assert (await conn._session.experimental.get_task(task_id)).status == "cancelled"
        state = await conn.state()
        assert state["moving"] is False, state
        at = state["position"]
        assert -600 < at["x"] < 300, state
        assert all(abs(a - b) <= 1 for a, b in zip((at["x"], at["y"], at["z"]), halted_at(cancelled.statusMessage)))
        assert safe_stops(conn.server_log()) == 1, conn.server_log()
        r = await conn.call("move_arm_to_pose", {"x": 300, "y": 0, "z": 400, "speed": 1.0})
        assert not r.is_error, r
        assert safe_stops(conn.server_log()) == 1, conn.server_log()

    run(body, "initialize", env)


@only_1x
def test_a_task_past_its_deadline_is_halted_the_same_way() -> None:
    # 1/50 of real time (the 30 s deadline is 600 ms); every motion takes 40 times its estimate.
    env = {"ROBOT_ARM_TIME_SCALE": "0.02", "ROBOT_ARM_MOTOR_LAG": "40", "RUST_LOG": "info"}

    async def body(conn: Conn) -> None:
        task_id = await start(conn, "move_arm_to_pose", {"x": -600, "y": 0, "z": 300, "speed": 0.5})
        done = await ended(conn, task_id)
        # Told to stop while it held the arm: cancelled, its message saying why and what ran.
        assert done.status == "cancelled", done
        text = done.statusMessage or ""
        assert "did not finish within its 600 ms deadline" in text, text
        assert ". Safe stop of `arm`: halted at (" in text, text
        state = await conn.state()
        assert state["moving"] is False, state
        assert -600 < state["position"]["x"] < 300, state
        assert safe_stops(conn.server_log()) == 1, conn.server_log()

    run(body, "initialize", env)


@only_1x
def test_the_live_task_bound_refuses_the_next_one_with_a_clear_error() -> None:
    # Motions queue on the arm; a client may have 8 unfinished tasks.
    env = {"ROBOT_ARM_TIME_SCALE": "0.05"}

    async def body(conn: Conn) -> None:
        from mcp.shared.exceptions import McpError

        ids = [await start(conn, "move_arm_to_pose", {"x": 300, "y": 0, "z": 800 - i, "speed": 0.1}) for i in range(8)]
        with pytest.raises(McpError) as refused:
            await start(conn, "move_arm_to_pose", {"x": 300, "y": 0, "z": 700, "speed": 0.1})
        assert "already has 8 unfinished tasks (the limit)" in str(refused.value), refused.value
        listed = await conn._session.experimental.list_tasks()
        assert sorted(t.taskId for t in listed.tasks) == sorted(ids)
        for task_id in ids:
            await conn._session.experimental.cancel_task(task_id)
        # With one ended, the next task is taken.
        await start(conn, "follow_trajectory", {"waypoints": [{"x": 300, "y": 0, "z": 400}, {"x": 350, "y": 0, "z": 400}]})

    run(body, "initialize", env)


def post(url: str, method: str, params: dict[str, Any], name: str) -> dict[str, Any]:
    """One request to the MCP endpoint `url` on protocol 2026-07-28 (stateless, the tasks
    extension declared, beside what `params` has in its `_meta`)."""
    params = {**params, "_meta": {
        **params.get("_meta", {}),
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
    }}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(url, body, {
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name})
    text = urllib.request.urlopen(request, timeout=30).read().decode()
    if "data:" in text:
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:") and line[5:].strip())
    answer = json.loads(text)
    assert "result" in answer, answer
    return answer["result"]


@pytest.mark.skipif(not shutil.which("redis-server"), reason="redis-server is needed (.ci/run installs it)")
def test_a_task_created_through_one_replica_is_read_through_the_other() -> None:
    assert CONFORMANCE.is_file(), f"{CONFORMANCE} does not exist: cargo build --example conformance"
    workdir = tempfile.mkdtemp(prefix="tasks-replicas-")
    redis_port = free_port()
    procs = [subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        wait_for_port(redis_port, procs[0], "redis-server")
        ports = [free_port(), free_port()]
        for port in ports:
            procs.append(subprocess.Popen(
                [str(CONFORMANCE), "serve", "--http", f"127.0.0.1:{port}", "--redis", f"redis://127.0.0.1:{redis_port}/0"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "RUST_LOG": "warn"}))
            wait_for_port(port, procs[-1], "replica")
        a, b = (f"http://127.0.0.1:{port}/mcp" for port in ports)
        created = post(a, "tools/call", {"name": "slow_compute", "arguments": {"seconds": 1.5, "label": "shared"}}, "slow_compute")
        assert created["resultType"] == "task", created
        task_id = created["taskId"]
        working = post(b, "tasks/get", {"taskId": task_id}, task_id)
        assert working["taskId"] == task_id and working["status"] == "working", working
        deadline = time.time() + 20
        while True:
            seen = post(b, "tasks/get", {"taskId": task_id}, task_id)
            if seen["status"] != "working":
                break
            assert time.time() < deadline, seen
            time.sleep(0.1)
        assert seen["status"] == "completed", seen
        assert seen["result"]["content"][0]["text"] == "computed `shared` in 1.5 s", seen
        # An id no replica created is unknown on both.
        for port in ports:
            body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {
                "taskId": "0" * 32, "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}}}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", body, {
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get", "Mcp-Name": "0" * 32})
            try:
                text = urllib.request.urlopen(request, timeout=30).read().decode()
            except urllib.error.HTTPError as e:
                text = e.read().decode()
            assert '"code":-32602' in text.replace(" ", ""), text
    finally:
        for proc in reversed(procs):
            proc.terminate()
            proc.wait(timeout=10)
