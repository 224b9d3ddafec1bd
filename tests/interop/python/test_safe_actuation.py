"""Safe actuation on the robot arm, driven by the official Python MCP SDK (PyPI `mcp`), over stdio
and over streamable HTTP: confirmation on its motions (`#[tool(confirm = "..")]`, against
`robot_arm serve --confirm=on`) and the read-only mode (`serve --read-only`).

- 1.x (`ClientSession`, protocol 2025-11-25) and 2.x in `legacy` mode: the server asks the user
  with `elicitation/create` while the call waits.
- 2.x in its default mode (protocol 2026-07-28): the question comes back as `input_required`
  with a sealed `requestState`, the SDK asks its elicitation callback and calls again. Driven by
  hand (`client.session.call_tool(.., allow_input_required=True)`), a state replayed with other
  arguments, replayed after it was used, or sent after it expired is refused, and nothing moves.

Every test starts its own server with the simulation's time at 0 (motions are instantaneous).

    ROBOT_ARM_BIN=target/debug/examples/robot_arm python -m pytest tests/interop/python/test_safe_actuation.py
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from test_robot_arm import BIN, MCP_MAJOR, MODES, TEST_TIMEOUT_S, attr

if MCP_MAJOR == 1:
    from mcp.client.streamable_http import streamablehttp_client
else:
    import httpx2 as httpx
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.exceptions import MCPError

TRANSPORTS = ["stdio", "http"]
CUBE = {"x": 400, "y": 0, "z": 25}

MOVE_QUESTION = "Move the arm to (300 mm, 0 mm, 200 mm) at 0.5 of full speed?"
GRASP_QUESTION = "Grasp the object at {x: 400 mm, y: 0 mm, z: 25 mm} with 15 N (parallel grasp)?"
RELEASE_QUESTION = "Open the gripper and put the held object down where the arm is?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class User:
    """The person behind the client: answers every question with `action`, and remembers them."""

    def __init__(self, action: str):
        self.action = action
        self.asked: list[str] = []

    async def elicitation(self, context: Any, params: Any) -> Any:
        self.asked.append(params.message)
        assert attr(params, "requestedSchema", "requested_schema")["properties"] == {}
        return types.ElicitResult(action=self.action, content={} if self.action == "accept" else None)


# The environment of the example servers: motions are instantaneous.
SERVER_ENV = {"ROBOT_ARM_TIME_SCALE": "0", "PANDA_TIME_SCALE": "0"}


class HttpServer:
    """`BINARY serve --http` (the robot arm unless told) on a free loopback port, with `args`."""

    def __init__(self, args: list[str], binary: Path = BIN):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.log = tempfile.NamedTemporaryFile("w+", prefix=f"{binary.name}-", suffix=".log")
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--http", f"127.0.0.1:{self.port}", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log,
            env={**os.environ, **SERVER_ENV, "RUST_LOG": "info"})
        deadline = time.time() + 30
        while "serving MCP over streamable HTTP" not in self.server_log():
            assert self.proc.poll() is None, f"{binary.name} exited:\n{self.server_log()}"
            assert time.time() < deadline, f"{binary.name} did not start:\n{self.server_log()}"
            time.sleep(0.05)

    def server_log(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self.log.close()


@asynccontextmanager
async def connect(transport: str, mode: str, user: User | None, args: list[str] | None = None,
                  binary: Path = BIN):
    """A client of a fresh `BINARY serve --confirm=on` (and `args`; the robot arm unless told);
    `user` answers its questions (None: a client that cannot be asked)."""
    assert binary.is_file(), f"{binary} does not exist: run `cargo build --examples` or set its *_BIN"
    serve = ["--confirm=on", *(args or [])]
    callbacks = {} if user is None else {"elicitation_callback": user.elicitation}
    if transport == "stdio":
        params = StdioServerParameters(command=str(binary), args=["serve", *serve],
                                       env={**SERVER_ENV, "RUST_LOG": "warn"})
        with tempfile.TemporaryFile("w+") as errlog:
            if MCP_MAJOR == 1:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write, **callbacks) as session:
                        await session.initialize()
                        yield session
            else:
                async with Client(stdio_client(params, errlog=errlog), mode=mode, **callbacks) as client:
                    yield client
        return
    server = HttpServer(serve, binary)
    try:
        if MCP_MAJOR == 1:
            async with streamablehttp_client(server.url) as (read, write, _):
                async with ClientSession(read, write, **callbacks) as session:
                    await session.initialize()
                    yield session
        else:
            async with httpx.AsyncClient(timeout=30) as http_client:
                transport_ = streamable_http_client(server.url, http_client=http_client)
                async with Client(transport_, mode=mode, **callbacks) as client:
                    yield client
    except BaseException:
        print(f"--- {binary.name} log ---\n{server.server_log()}")
        raise
    finally:
        server.stop()


def run(body, transport: str, mode: str, user: User | None, args: list[str] | None = None,
        binary: Path = BIN) -> None:
    async def main() -> None:
        with anyio.fail_after(TEST_TIMEOUT_S):
            async with connect(transport, mode, user, args, binary) as session:
                if MCP_MAJOR >= 2 and mode == "auto":
                    assert session.protocol_version >= "2026-07-28", session.protocol_version
                await body(session)

    asyncio.run(main())


async def call(session: Any, name: str, arguments: dict[str, Any] | None = None) -> tuple[bool, Any, str]:
    """(isError, structuredContent, first text) of one call."""
    r = await session.call_tool(name, arguments or {})
    return bool(attr(r, "isError", "is_error")), attr(r, "structuredContent", "structured_content"), r.content[0].text


async def arm_state(session: Any) -> dict[str, Any]:
    is_error, state, text = await call(session, "get_arm_state")
    assert not is_error, text
    return state


CASES = [(t, m) for t in TRANSPORTS for m in MODES]

READ_ONLY_TOOLS = ["read_ft_sensor", "plan_trajectory", "get_arm_state", "capture_image", "describe_tool"]


@pytest.mark.parametrize("transport,mode", CASES)
def test_read_only_lists_and_runs_only_the_tools_that_change_nothing(transport: str, mode: str) -> None:
    async def body(session: Any) -> None:
        listed = await session.list_tools()
        assert [t.name for t in listed.tools] == READ_ONLY_TOOLS
        before = await arm_state(session)
        is_error, _, text = await call(session, "move_arm_to_pose", {"x": 300, "y": 0, "z": 200})
        assert is_error
        assert text.startswith("Tool `move_arm_to_pose` was not run: this server is read-only"), text
        assert "read_ft_sensor, plan_trajectory, get_arm_state, capture_image, describe_tool" in text, text
        # The stop changes the world too: not served either.
        is_error, _, text = await call(session, "stop_arm")
        assert is_error and "read-only" in text, text
        is_error, _, text = await call(session, "describe_tool", {"name": "move_arm_to_pose"})
        assert is_error and "this server is read-only" in text, text
        assert await arm_state(session) == before

    run(body, transport, mode, User("accept"), ["--read-only"])


@pytest.mark.parametrize("transport,mode", CASES)
def test_accepted_motions_run_and_the_question_shows_the_arguments_with_units(transport: str, mode: str) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        is_error, moved, text = await call(session, "move_arm_to_pose", {"x": 300, "y": 0, "z": 200})
        assert not is_error, text
        assert moved["position"] == {"x": 300.0, "y": 0.0, "z": 200.0}
        assert (await arm_state(session))["position"] == {"x": 300.0, "y": 0.0, "z": 200.0}
        is_error, grasp, text = await call(session, "grasp_object_force_control", {"target_position": CUBE})
        assert not is_error, text
        assert grasp["object"] == "red_cube"
        is_error, _, text = await call(session, "release_object")
        assert not is_error, text
        # One question per motion, each with the validated arguments (defaults filled in) and units.
        assert user.asked == [MOVE_QUESTION, GRASP_QUESTION, RELEASE_QUESTION]
        # A read-only tool asks nothing.
        await arm_state(session)
        assert len(user.asked) == 3

    run(body, transport, mode, user)


@pytest.mark.parametrize("transport,mode", CASES)
@pytest.mark.parametrize("action,why", [("decline", "the user declined"), ("cancel", "the user dismissed the question")])
def test_a_motion_the_user_declines_leaves_the_arm_where_it_was(transport: str, mode: str, action: str, why: str) -> None:
    user = User(action)

    async def body(session: Any) -> None:
        before = await arm_state(session)
        is_error, _, text = await call(session, "move_arm_to_pose", {"x": 300, "y": 0, "z": 200})
        assert is_error
        assert text.startswith(f"not confirmed: {why}; `move_arm_to_pose` did not run, and `arm` was not touched"), text
        assert user.asked == [MOVE_QUESTION]
        after = await arm_state(session)
        assert after["position"] == before["position"]
        assert after == before

    run(body, transport, mode, user)


@pytest.mark.parametrize("transport,mode", CASES)
def test_a_client_that_cannot_be_asked_is_refused_and_nothing_moves(transport: str, mode: str) -> None:
    async def body(session: Any) -> None:
        before = await arm_state(session)
        is_error, _, text = await call(session, "move_arm_to_pose", {"x": 300, "y": 0, "z": 200})
        assert is_error
        assert "runs only once the user confirms it, and the user could not be asked" in text, text
        assert "Use a client that supports elicitation" in text and "--confirm=off" in text, text
        assert "`arm` was not touched" in text, text
        assert await arm_state(session) == before

    run(body, transport, mode, None)


if MCP_MAJOR >= 2:  # Protocol 2026-07-28: the rounds, driven by hand.

    ACCEPT = {"confirm": types.ElicitResult(action="accept", content={})}
    MOVE = {"x": 300, "y": 0, "z": 200}

    async def ask(client: Any, arguments: dict[str, Any]) -> str:
        """The first round of a motion: the question, and the state to answer it with."""
        first = await client.session.call_tool("move_arm_to_pose", arguments, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult), first
        [(key, request)] = first.input_requests.items()
        assert key == "confirm"
        assert request.params.message == MOVE_QUESTION
        return first.request_state

    async def answer(client: Any, arguments: dict[str, Any], state: str) -> Any:
        return await client.session.call_tool(
            "move_arm_to_pose", arguments, input_responses=ACCEPT, request_state=state, allow_input_required=True)

    def refused(error: MCPError, why: str) -> None:
        assert error.code == -32602, error
        assert error.message.startswith("requestState refused"), error.message
        assert why in error.message and "nothing ran" in error.message, error.message

    @pytest.mark.parametrize("transport", TRANSPORTS)
    def test_an_approval_does_not_carry_over_to_other_arguments(transport: str) -> None:
        async def body(client: Any) -> None:
            before = await arm_state(client)
            state = await ask(client, MOVE)
            with pytest.raises(MCPError) as e:
                await answer(client, {**MOVE, "x": 310}, state)
            refused(e.value, "not a state this server sealed for this call")
            with pytest.raises(MCPError) as e:
                await answer(client, {**MOVE, "speed": 1.0}, state)
            refused(e.value, "not a state this server sealed for this call")
            assert await arm_state(client) == before
            # The approval still runs the call it was given for.
            done = await answer(client, MOVE, state)
            assert isinstance(done, types.CallToolResult) and not done.is_error, done
            assert (await arm_state(client))["position"] == {"x": 300.0, "y": 0.0, "z": 200.0}

        run(body, transport, "auto", User("accept"))

    @pytest.mark.parametrize("transport", TRANSPORTS)
    def test_an_approval_runs_one_call(transport: str) -> None:
        async def body(client: Any) -> None:
            state = await ask(client, MOVE)
            done = await answer(client, MOVE, state)
            assert isinstance(done, types.CallToolResult) and not done.is_error, done
            # Move the arm away, then replay the used approval: refused, and the arm stays put.
            moved = await client.call_tool("move_arm_to_pose", {"x": 350, "y": 100, "z": 300})
            assert not moved.is_error, moved
            with pytest.raises(MCPError) as e:
                await answer(client, MOVE, state)
            refused(e.value, "already used")
            assert (await arm_state(client))["position"] == {"x": 350.0, "y": 100.0, "z": 300.0}

        run(body, transport, "auto", User("accept"))

    @pytest.mark.parametrize("transport", TRANSPORTS)
    def test_an_expired_approval_is_refused(transport: str) -> None:
        async def body(client: Any) -> None:
            before = await arm_state(client)
            state = await ask(client, MOVE)
            await anyio.sleep(1.5)
            with pytest.raises(MCPError) as e:
                await answer(client, MOVE, state)
            refused(e.value, "expired")
            assert await arm_state(client) == before
            # Asked again, the user's answer counts.
            fresh = await ask(client, MOVE)
            done = await answer(client, MOVE, fresh)
            assert isinstance(done, types.CallToolResult) and not done.is_error, done

        run(body, transport, "auto", User("accept"), ["--request-state-ttl", "1s"])
