"""Every tool that changes the world asks its user first, or says why no one needs to: walked over
every example's tools, with a client that declines every question, through the official Python
MCP SDK (1.x and 2.x lines, each connection mode), over stdio.

For each example server (robot_arm, ros_arm, parts_catalog, many_tools, conformance, panda; a new tool or
a new example is covered without anyone listing it here), every tool whose annotations do not say
`readOnlyHint: true` and that is not a stop tool (`_meta["io.toolwright/stopFor"]`) is called
once with arguments made from its published input schema:

- a tool that declares a question (`_meta["io.toolwright/confirm"]`) is refused: either the user
  was asked (once) and declined, and the answer says nothing ran, or it was refused before anyone
  was asked (its arguments, its envelope, its check), never run unasked;
- a tool that says why no one confirms it (`_meta["io.toolwright/confirmNotNeeded"]`) may run
  without the runtime asking first (its body may ask its own questions);
- any other world-changing tool fails the test: it neither asks nor says why.

The robot's state (`get_arm_state`, `joint_state`, the Panda's `get_state`) is the same after the
walk as before it.

    ROBOT_ARM_BIN=... ROS_ARM_BIN=... PARTS_CATALOG_BIN=... MANY_TOOLS_BIN=... CONFORMANCE_BIN=... \
        PANDA_BIN=... python -m pytest tests/interop/python/test_every_tool_asks.py
"""

from __future__ import annotations

import asyncio
import math
import os
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from test_robot_arm import BIN, MCP_MAJOR, MODES, REPO, TEST_TIMEOUT_S, attr

if MCP_MAJOR >= 2:
    from mcp import Client

DEBUG = REPO / "target" / "debug" / "examples"

# Each example server: its binary, and the read-only tool that says where its robot is (None: it
# drives no robot).
EXAMPLES = {
    "robot_arm": (BIN, "get_arm_state"),
    "ros_arm": (Path(os.environ.get("ROS_ARM_BIN", DEBUG / "ros_arm")), "joint_state"),
    "parts_catalog": (Path(os.environ.get("PARTS_CATALOG_BIN", DEBUG / "parts_catalog")), None),
    "many_tools": (Path(os.environ.get("MANY_TOOLS_BIN", DEBUG / "many_tools")), None),
    "conformance": (Path(os.environ.get("CONFORMANCE_BIN", DEBUG / "conformance")), None),
    "panda": (Path(os.environ.get("PANDA_BIN", DEBUG / "panda")), "get_state"),
}

CONFIRM = "io.toolwright/confirm"
NOT_NEEDED = "io.toolwright/confirmNotNeeded"
STOP_FOR = "io.toolwright/stopFor"


class Decliner:
    """A user who declines every question, and remembers them."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def elicitation(self, context: Any, params: Any) -> Any:
        self.asked.append(params.message)
        return types.ElicitResult(action="decline")


def arguments_for(schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments the tool's input schema accepts: its required properties, else all of them
    (conditional schemas, `if`/`then`/`else`, may want an optional one); the first that
    validates, else the first (the server then refuses them, which the walk accepts)."""
    candidates = [example(schema), example(schema, every=True)]
    for candidate in candidates:
        if Draft202012Validator(schema).is_valid(candidate):
            return candidate
    return candidates[0]


def example(schema: dict[str, Any], every: bool = False) -> Any:
    """A value the schema accepts, from its defaults, enums and bounds (the middle of a range);
    objects with their required properties, or `every` property."""
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        # Branches that are values of their own (not constraints on the object around them).
        if key in schema and any(VALUE_KEYS & set(b) for b in schema[key]):
            branches = [b for b in schema[key] if b.get("type") != "null"] or schema[key]
            return example(branches[0], every)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        required = required_of(schema)
        return {name: example(sub, every) for name, sub in schema.get("properties", {}).items()
                if every or name in required}
    if kind == "array":
        count = max(1, schema.get("minItems", 1))
        return [example(schema.get("items", {}), every) for _ in range(count)]
    if kind in ("number", "integer"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        if low is not None and high is not None:
            value = (low + high) / 2
        elif low is not None:
            value = low + 1
        elif high is not None:
            value = high - 1
        else:
            value = 0
        if kind == "integer":
            value = math.floor(value)
        return value
    if kind == "boolean":
        return True
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    return None


# Keys that make a schema a value of its own, rather than a constraint on its parent.
VALUE_KEYS = {"type", "properties", "const", "enum", "items"}


def required_of(schema: dict[str, Any]) -> set[str]:
    """The properties an object schema requires, through `allOf` and the first branch of an
    `anyOf`/`oneOf` of constraints (`{"anyOf": [{"required": ["phone"]}, ..]}`)."""
    required = set(schema.get("required", []))
    for sub in schema.get("allOf", []):
        required |= required_of(sub)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key, [])
        if branches and not any(VALUE_KEYS & set(b) for b in branches):
            required |= required_of(branches[0])
    return required


@asynccontextmanager
async def connect(binary: Path, mode: str, user: Decliner):
    """A client of `binary serve` over stdio (confirmation on, as served by default)."""
    assert binary.is_file(), f"{binary} does not exist: run `cargo build --examples` or set its *_BIN"
    params = StdioServerParameters(command=str(binary), args=["serve"],
                                   env={"ROBOT_ARM_TIME_SCALE": "0", "PANDA_TIME_SCALE": "0", "RUST_LOG": "warn"})
    with tempfile.TemporaryFile("w+") as errlog:
        if MCP_MAJOR == 1:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, elicitation_callback=user.elicitation) as session:
                    await session.initialize()
                    yield session
        else:
            async with Client(stdio_client(params, errlog=errlog), mode=mode,
                              elicitation_callback=user.elicitation) as client:
                yield client


async def all_tools(session: Any) -> list[Any]:
    tools, cursor = [], None
    while True:
        page = await session.list_tools(cursor=cursor) if cursor else await session.list_tools()
        tools.extend(page.tools)
        cursor = attr(page, "nextCursor", "next_cursor")
        if not cursor:
            return tools


async def state(session: Any, tool: str | None) -> Any:
    if tool is None:
        return None
    r = await session.call_tool(tool, {})
    assert not attr(r, "isError", "is_error"), r
    return attr(r, "structuredContent", "structured_content")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_tool_that_changes_the_world_asks_first_or_says_why_not(name: str, mode: str) -> None:
    binary, state_tool = EXAMPLES[name]
    user = Decliner()
    walked: list[tuple[str, str]] = []

    async def body(session: Any) -> None:
        tools = await all_tools(session)
        assert tools, f"{name} lists no tools"
        before = await state(session, state_tool)
        for tool in tools:
            annotations = tool.annotations
            read_only = annotations is not None and attr(annotations, "readOnlyHint", "read_only_hint") is True
            meta = attr(tool, "meta", "_meta") or {}
            if read_only or STOP_FOR in meta:
                continue
            arguments = arguments_for(attr(tool, "inputSchema", "input_schema"))
            asked = len(user.asked)
            r = await session.call_tool(tool.name, arguments)
            asked = len(user.asked) - asked
            is_error = attr(r, "isError", "is_error")
            text = r.content[0].text if r.content else ""
            if CONFIRM in meta:
                assert is_error, f"{name}: `{tool.name}` ran although its user declined: {text}"
                if asked:
                    assert asked == 1, (tool.name, user.asked)
                    assert text.startswith("not confirmed: the user declined"), (tool.name, text)
                    assert "did not run" in text, (tool.name, text)
                    walked.append((tool.name, "asked, declined"))
                else:
                    # Refused before anyone was asked: its arguments, envelope or check.
                    assert not text.startswith("not confirmed"), (tool.name, text)
                    walked.append((tool.name, "refused before asking"))
            elif NOT_NEEDED in meta:
                # It says why the runtime asks no one (its body may still ask: declined here).
                walked.append((tool.name, f"not asked first, because {meta[NOT_NEEDED]}"))
            else:
                pytest.fail(f"{name}: `{tool.name}` changes the world (not read-only, not a stop tool) "
                            f"but neither asks its user (`confirm`) nor says why no one needs to "
                            f"(`confirm = false, because`)")
        assert await state(session, state_tool) == before, f"{name}: the robot moved"

    async def main() -> None:
        with anyio.fail_after(TEST_TIMEOUT_S * 4):
            async with connect(binary, mode, user) as session:
                await body(session)

    asyncio.run(main())
    print(f"{name} ({mode}): " + "; ".join(f"{t}: {how}" for t, how in walked))
    if name == "robot_arm":
        asked = {t for t, how in walked if how == "asked, declined"}
        assert {"move_arm_to_pose", "follow_trajectory", "grasp_object_force_control"} <= asked, walked
    if name == "ros_arm":
        assert {t for t, _ in walked} == {"move_to_pose", "follow_path", "move_joints"}, walked
    if name == "panda":
        # Both motions declare a question: asked and declined, or refused before asking.
        assert {t for t, _ in walked} == {"move_joints", "move_to"}, walked
        assert all(how in ("asked, declined", "refused before asking") for _, how in walked), walked
    if name == "many_tools":
        assert sum(1 for _, how in walked if how == "asked, declined") == 100, walked
