"""LangChain's MCP adapters (PyPI `langchain-mcp-adapters`, pinned with everything they pull in,
the official Python MCP SDK 1.x among them, in requirements-langchain.txt) against the robot_arm
example, with no model: the LangChain tool objects are invoked directly, as an agent would.

- Conversion: every tool `tools/list` publishes becomes a LangChain tool whose argument schema is
  the published `inputSchema`, and `convert_to_openai_tool` (what `bind_tools` sends a chat
  model) keeps it, its name and its description.
- Calls, with confirmation on (the server's default): the adapters answer elicitation
  (`Callbacks(on_elicitation=..)`), so every motion is asked about and accepted (or declined).
- Over stdio (one session, `load_mcp_tools`) every tool is called; over streamable HTTP
  (`MultiServerMCPClient.get_tools()`, a new session per call) a read, a motion and a refusal.
- The revision: the server's log shows the adapters' `initialize` on 2025-11-25.

    ROBOT_ARM_BIN=target/release/examples/robot_arm python -m pytest tests/interop/clients/python/test_langchain.py
"""

from __future__ import annotations

import asyncio
import base64
import importlib.metadata
import time
from typing import Any

import mcp.types as types
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_mcp_adapters.callbacks import Callbacks
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

from clients_common import (
    AWAY, CUBE, DID_NOT_RUN, FOLLOW_QUESTION, GRASP_QUESTION, HOME, MOVE_AWAY, MOVE_QUESTION, OUT_OF_RANGE,
    PNG_SIGNATURE, PUBLISHED, RANGE, RELEASE_QUESTION, TOOLS, UP_FROM_CUBE, HttpServer, ServerLog,
    assert_moved_away, stdio_command,
)

VERSION = importlib.metadata.version("langchain-mcp-adapters")
TEST_TIMEOUT_S = 60


class User:
    """The person behind the agent: answers every question with `action`, and remembers them."""

    def __init__(self, action: str) -> None:
        self.action = action
        self.asked: list[str] = []

    async def __call__(self, mcp_context: Any, params: types.ElicitRequestParams, context: Any) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action=self.action, content={} if self.action == "accept" else None)


def run(body: Any) -> None:
    asyncio.run(asyncio.wait_for(body(), TEST_TIMEOUT_S))


async def invoke(tool: Any, args: dict[str, Any]) -> tuple[ToolMessage, float]:
    """Invokes a LangChain tool with a model's tool call; its message and how long it took."""
    started = time.monotonic()
    message = await tool.ainvoke({"name": tool.name, "args": args, "id": f"call-{tool.name}", "type": "tool_call"})
    assert isinstance(message, ToolMessage), message
    return message, time.monotonic() - started


def structured(message: ToolMessage) -> dict[str, Any]:
    assert message.status == "success", message.content
    return message.artifact["structured_content"]


def text(message: ToolMessage) -> str:
    return "\n".join(block["text"] for block in message.content if block.get("type") == "text")


def assert_refused_out_of_range(message: ToolMessage) -> None:
    # An `isError` result goes back to the model as an error message (handle_tool_errors).
    assert message.status == "error", message
    assert RANGE in text(message), text(message)
    assert DID_NOT_RUN in text(message), text(message)


def assert_converted(tools: list[Any], listed: list[types.Tool]) -> None:
    """Every listed tool converted, unchanged, and as `bind_tools` would send it to a model."""
    assert [t.name for t in listed] == TOOLS
    assert [t.name for t in tools] == [t.name for t in listed]
    for tool, mcp_tool in zip(tools, listed):
        assert mcp_tool.inputSchema == PUBLISHED[mcp_tool.name]["inputSchema"]
        assert tool.args_schema == mcp_tool.inputSchema
        assert tool.description == mcp_tool.description
        function = convert_to_openai_tool(tool)["function"]
        assert function["name"] == mcp_tool.name
        assert function["description"] == mcp_tool.description
        assert function["parameters"] == mcp_tool.inputSchema, mcp_tool.name
        # Annotations travel in the tool's metadata (a model-facing framework reads them there).
        annotations = PUBLISHED[mcp_tool.name]["annotations"]
        for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert tool.metadata[hint] == annotations.get(hint), (mcp_tool.name, hint, tool.metadata)


def test_stdio_every_tool_with_each_motion_confirmed() -> None:
    log = ServerLog()
    user = User("accept")
    command, args = stdio_command(log)
    client = MultiServerMCPClient({"arm": {"transport": "stdio", "command": command, "args": args}},
                                  callbacks=Callbacks(on_elicitation=user))

    async def body() -> None:
        async with client.session("arm") as session:
            tools = await load_mcp_tools(session, callbacks=client.callbacks, server_name="arm")
            assert_converted(tools, (await session.list_tools()).tools)
            tool = {t.name: t for t in tools}

            state, _ = await invoke(tool["get_arm_state"], {})
            assert structured(state)["position"] == HOME
            sensor, _ = await invoke(tool["read_ft_sensor"], {})
            assert [r["axis"] for r in structured(sensor)["readings"]] == ["Fx", "Fy", "Fz", "Mx", "My", "Mz"]
            described, _ = await invoke(tool["describe_tool"], {"name": "move_arm_to_pose"})
            assert structured(described)["inputSchema"] == PUBLISHED["move_arm_to_pose"]["inputSchema"]
            plan, _ = await invoke(tool["plan_trajectory"], {"waypoints": [HOME, CUBE]})
            assert structured(plan)["start"] == HOME
            assert structured(plan)["segments"][1]["to"] == 1
            picture, _ = await invoke(tool["capture_image"], {})
            images = [b for b in picture.content if b.get("type") == "image"]
            assert len(images) == 1, picture.content
            assert base64.b64decode(images[0]["base64"]).startswith(PNG_SIGNATURE)
            assert user.asked == []  # reads are not confirmed

            grasp, _ = await invoke(tool["grasp_object_force_control"], {"target_position": CUBE})
            assert structured(grasp)["object"] == "red_cube"
            release, _ = await invoke(tool["release_object"], {})
            assert structured(release)["object"] == "red_cube"
            up, _ = await invoke(tool["follow_trajectory"], {"waypoints": [UP_FROM_CUBE], "speed": 1.0})
            assert structured(up)["position"] == UP_FROM_CUBE
            move, seconds = await invoke(tool["move_arm_to_pose"], MOVE_AWAY)
            assert_moved_away(structured(move), seconds)
            assert user.asked == [GRASP_QUESTION, RELEASE_QUESTION, FOLLOW_QUESTION, MOVE_QUESTION]
            state, _ = await invoke(tool["get_arm_state"], {})
            assert structured(state)["position"] == AWAY

            refused, _ = await invoke(tool["move_arm_to_pose"], OUT_OF_RANGE)
            assert_refused_out_of_range(refused)
            stop, _ = await invoke(tool["stop_arm"], {})
            assert structured(stop)["position"] == AWAY
            assert len(user.asked) == 4  # neither the refused call nor the stop asked

    run(body)
    assert log.revisions() == ["2025-11-25"], log.text()
    assert log.client() is not None and log.client()[0] == "mcp", log.text()


def test_stdio_a_declined_motion_does_not_run() -> None:
    log = ServerLog()
    user = User("decline")
    command, args = stdio_command(log)
    client = MultiServerMCPClient({"arm": {"transport": "stdio", "command": command, "args": args}},
                                  callbacks=Callbacks(on_elicitation=user))

    async def body() -> None:
        async with client.session("arm") as session:
            tool = {t.name: t for t in await load_mcp_tools(session, callbacks=client.callbacks)}
            move, seconds = await invoke(tool["move_arm_to_pose"], MOVE_AWAY)
            assert move.status == "error", move
            assert "did not run" in text(move), text(move)
            assert seconds < 1, seconds
            assert user.asked == [MOVE_QUESTION]
            state, _ = await invoke(tool["get_arm_state"], {})
            assert structured(state)["position"] == HOME

    run(body)


def test_http_a_session_per_call_reads_moves_once_confirmed_and_refuses() -> None:
    user = User("accept")
    with HttpServer() as server:
        client = MultiServerMCPClient({"arm": {"transport": "streamable_http", "url": server.url}},
                                     callbacks=Callbacks(on_elicitation=user))

        async def body() -> None:
            async with client.session("arm") as session:
                listed = (await session.list_tools()).tools
            # The usual way: tools bound to the connection, each call in a session of its own.
            tools = await client.get_tools()
            assert_converted(tools, listed)
            tool = {t.name: t for t in tools}

            state, _ = await invoke(tool["get_arm_state"], {})
            assert structured(state)["position"] == HOME
            move, seconds = await invoke(tool["move_arm_to_pose"], MOVE_AWAY)
            assert_moved_away(structured(move), seconds)
            assert user.asked == [MOVE_QUESTION]
            # Another session, the same arm: it went where the motion said.
            state, _ = await invoke(tool["get_arm_state"], {})
            assert structured(state)["position"] == AWAY
            refused, _ = await invoke(tool["move_arm_to_pose"], OUT_OF_RANGE)
            assert_refused_out_of_range(refused)
            assert user.asked == [MOVE_QUESTION]

        run(body)
        assert server.log.revisions() == ["2025-11-25"], server.log.text()
        assert server.log.client() is not None and server.log.client()[0] == "mcp", server.log.text()
