"""The OpenAI Agents SDK (PyPI `openai-agents`, pinned with everything it pulls in, the official
Python MCP SDK 2.x among them, in requirements-openai-agents.txt) against the robot_arm example,
with no model, no network and no API key: nothing here reaches OpenAI (tracing is off and the API
address is a closed loopback port).

- Connection: `MCPServerStdio` and `MCPServerStreamableHttp`; the SDK's MCP client speaks
  2026-07-28 (`mcp.Client` in `auto` mode), which the server's log confirms.
- Conversion: `Agent(mcp_config={"convert_schemas_to_strict": True}).get_mcp_tools()` (the path a
  run takes: `agents.mcp.MCPUtil.get_all_function_tools`) turns every published tool into a
  `FunctionTool`. The SDK falls back to a non-strict schema, silently, when its conversion
  fails: every tool must come out strict, its schema a fixed point of the SDK's own
  `ensure_strict_json_schema`, every object closed (`additionalProperties: false`) with every
  property required, the parameters unchanged.
- Calls through the function-tool path (`FunctionTool.on_invoke_tool`, what a run calls with the
  model's arguments), with arguments a strict schema allows (every property given): every tool
  over stdio, a read, a motion and a refusal over HTTP. The SDK cannot answer elicitation, so the
  motions run with `--confirm off`; with confirmation on, the motion is refused and nothing moves.

    ROBOT_ARM_BIN=target/release/examples/robot_arm python -m pytest tests/interop/clients/python/test_openai_agents.py
"""

from __future__ import annotations

import os

# No key is needed for what this file does; a dummy one keeps anything that would build an
# OpenAI client from reaching for a real one, and the API address is a port nothing listens on.
os.environ["OPENAI_API_KEY"] = "sk-toolwright-interop-no-network"
os.environ["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"

import asyncio  # noqa: E402
import base64  # noqa: E402
import copy  # noqa: E402
import importlib.metadata  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from agents import Agent, RunContextWrapper, set_tracing_disabled  # noqa: E402
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp  # noqa: E402
from agents.strict_schema import ensure_strict_json_schema  # noqa: E402
from agents.tool import FunctionTool  # noqa: E402
from agents.tool_context import ToolContext  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402

from clients_common import (  # noqa: E402
    AWAY, HOME, MOVE_AWAY, OUT_OF_RANGE, PNG_SIGNATURE, PUBLISHED, RANGE, DID_NOT_RUN, STRICT_CALLS,
    TOOLS, UNASKED, HttpServer, ServerLog, assert_moved_away, stdio_command,
)

set_tracing_disabled(True)

VERSION = importlib.metadata.version("openai-agents")
TEST_TIMEOUT_S = 60
# The client's read timeout: longer than the longest motion (the SDK's default is 5 s).
READ_TIMEOUT_S = 30


def run(body: Any) -> None:
    asyncio.run(asyncio.wait_for(body(), TEST_TIMEOUT_S))


def assert_strict(schema: dict[str, Any], at: str) -> None:
    """OpenAI strict mode's shape: every object closed, with every property required; no `oneOf`,
    `allOf` or `$ref` left; at the root a plain object."""
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        assert schema.get("additionalProperties") is False, (at, schema)
        assert schema.get("required") == list(schema.get("properties", {})), (at, schema)
    for word in ("oneOf", "allOf", "$ref"):
        assert word not in schema, (at, word)
    for name, sub in schema.get("properties", {}).items():
        assert_strict(sub, f"{at}.{name}")
    if isinstance(schema.get("items"), dict):
        assert_strict(schema["items"], f"{at}[]")
    for i, sub in enumerate(schema.get("anyOf", [])):
        assert_strict(sub, f"{at}|{i}")


def same_parameters(strict: dict[str, Any], published: dict[str, Any], at: str) -> None:
    """The strict schema has the published properties, at every level, with their types."""
    assert strict.get("type") == published.get("type"), at
    assert list(strict.get("properties", {})) == list(published.get("properties", {})), at
    for name, sub in published.get("properties", {}).items():
        same_parameters(strict["properties"][name], sub, f"{at}.{name}")
    if isinstance(published.get("items"), dict):
        same_parameters(strict["items"], published["items"], f"{at}[]")


def assert_converted_strict(tools: list[Any]) -> dict[str, FunctionTool]:
    assert [t.name for t in tools] == TOOLS
    for tool in tools:
        assert isinstance(tool, FunctionTool), tool
        schema = tool.params_json_schema
        # False when the SDK's conversion failed and it kept the schema as it was.
        assert tool.strict_json_schema is True, tool.name
        assert tool.description == PUBLISHED[tool.name]["description"]
        assert schema.get("type") == "object" and "anyOf" not in schema, tool.name
        assert_strict(schema, tool.name)
        assert ensure_strict_json_schema(copy.deepcopy(schema)) == schema, tool.name
        same_parameters(schema, PUBLISHED[tool.name]["inputSchema"], tool.name)
        Draft202012Validator.check_schema(schema)
    # The calls made below are ones a strict model could make, and the server's schema accepts.
    by_name = {t.name: t for t in tools}
    for name, args in STRICT_CALLS:
        Draft202012Validator(by_name[name].params_json_schema).validate(args)
        Draft202012Validator(PUBLISHED[name]["inputSchema"]).validate(args)
    return by_name


async def invoke(tool: FunctionTool, args: dict[str, Any]) -> tuple[Any, float]:
    """Calls `tool` as a run does with a model's tool call; its output and how long it took."""
    arguments = json.dumps(args)
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id=f"call-{tool.name}",
                          tool_arguments=arguments)
    started = time.monotonic()
    output = await tool.on_invoke_tool(context, arguments)
    return output, time.monotonic() - started


def json_output(output: Any) -> Any:
    """A JSON result as the model gets it: the structured content (use_structured_content) or
    the one text block that carries it."""
    if isinstance(output, str):
        return json.loads(output)
    assert isinstance(output, dict) and output["type"] == "text", output
    return json.loads(output["text"])


def projected(output: Any) -> Any:
    """What a `jmespath` argument selected: `{"projection": value}` in the structured content,
    the value alone in the text."""
    value = json_output(output)
    if isinstance(output, str):
        assert list(value) == ["projection"], value
        return value["projection"]
    return value


def error_text(output: Any) -> str:
    assert isinstance(output, dict) and output["type"] == "text", output
    return output["text"]


def agent_for(server: Any) -> Agent:
    # failure_error_function None: a failure raises here instead of becoming text for a model.
    return Agent(name="arm operator", mcp_servers=[server],
                 mcp_config={"convert_schemas_to_strict": True, "failure_error_function": None})


def test_stdio_every_tool_converts_strict_and_runs() -> None:
    log = ServerLog()
    command, args = stdio_command(log, "--confirm", "off")

    async def body() -> None:
        async with MCPServerStdio(params={"command": command, "args": args}, name="arm",
                                  client_session_timeout_seconds=READ_TIMEOUT_S) as server:
            assert server.session.protocol_version == "2026-07-28"
            agent = agent_for(server)
            context = RunContextWrapper(context=None)
            listed = await server.list_tools(context, agent)
            assert [t.name for t in listed] == TOOLS
            tool = assert_converted_strict(await agent.get_mcp_tools(context))

            outputs: dict[str, Any] = {}
            for name, arguments in STRICT_CALLS:
                outputs[name], seconds = await invoke(tool[name], arguments)
                if name == "move_arm_to_pose":
                    assert_moved_away(json_output(outputs[name]), seconds)
            assert projected(outputs["get_arm_state"]) == HOME
            assert projected(outputs["read_ft_sensor"]) == ["Fx", "Fy", "Fz"]
            assert json_output(outputs["describe_tool"])["name"] == "move_arm_to_pose"
            assert projected(outputs["plan_trajectory"]) == 100.0
            # A picture reaches the model as an image: its JSON, then the PNG as a data URL.
            text, image = outputs["capture_image"]
            assert json.loads(text["text"])["camera"] == "overhead"
            prefix = "data:image/png;base64,"
            assert image["type"] == "image" and image["image_url"].startswith(prefix), str(image)[:200]
            assert base64.b64decode(image["image_url"][len(prefix):]).startswith(PNG_SIGNATURE)
            assert json_output(outputs["grasp_object_force_control"])["object"] == "red_cube"
            assert json_output(outputs["release_object"])["object"] == "red_cube"
            assert json_output(outputs["stop_arm"])["position"] == AWAY

            refused, _ = await invoke(tool["move_arm_to_pose"], {**OUT_OF_RANGE, "speed": 0.5})
            assert RANGE in error_text(refused) and DID_NOT_RUN in error_text(refused), refused

    run(body)
    assert log.revisions() == ["2026-07-28"], log.text()


def test_stdio_with_confirmation_on_a_motion_is_refused_and_nothing_moves() -> None:
    log = ServerLog()
    command, args = stdio_command(log)

    async def body() -> None:
        async with MCPServerStdio(params={"command": command, "args": args}, name="arm",
                                  client_session_timeout_seconds=READ_TIMEOUT_S) as server:
            agent = agent_for(server)
            tool = {t.name: t for t in await agent.get_mcp_tools(RunContextWrapper(context=None))}
            refused, seconds = await invoke(tool["move_arm_to_pose"], {**MOVE_AWAY, "speed": 0.5})
            assert UNASKED in error_text(refused) and "it did not run" in error_text(refused), refused
            assert seconds < 1, seconds
            state, _ = await invoke(tool["get_arm_state"], {"jmespath": "position", "summary": False})
            assert projected(state) == HOME

    run(body)


def test_http_converts_strict_reads_moves_and_refuses() -> None:
    with HttpServer("--confirm", "off") as server:

        async def body() -> None:
            async with MCPServerStreamableHttp(params={"url": server.url}, name="arm",
                                               client_session_timeout_seconds=READ_TIMEOUT_S,
                                               use_structured_content=True) as client:
                assert client.session.protocol_version == "2026-07-28"
                agent = agent_for(client)
                tool = assert_converted_strict(await agent.get_mcp_tools(RunContextWrapper(context=None)))

                state, _ = await invoke(tool["get_arm_state"], {"jmespath": "position", "summary": False})
                assert projected(state) == HOME
                move, seconds = await invoke(tool["move_arm_to_pose"], {**MOVE_AWAY, "speed": 0.5})
                assert_moved_away(json_output(move), seconds)
                state, _ = await invoke(tool["get_arm_state"], {"jmespath": "position", "summary": False})
                assert projected(state) == AWAY
                refused, _ = await invoke(tool["move_arm_to_pose"], {**OUT_OF_RANGE, "speed": 0.5})
                assert RANGE in error_text(refused) and DID_NOT_RUN in error_text(refused), refused

        run(body)
        assert server.log.revisions() == ["2026-07-28"], server.log.text()
