"""Results a model can afford, through the official Python MCP SDK (PyPI `mcp`, 1.x and 2.x lines):
`jmespath` projections, `summary: true`, the `_jmespath_error` envelope and the `_budget_exceeded`
envelope. The SDK's client validates every `structuredContent` against the tool's `outputSchema`
(it raises on a mismatch), so each answer below was accepted by it; the tests check the same
again with `jsonschema` and then what each answer says.

    ROBOT_ARM_BIN=target/debug/examples/robot_arm PARTS_CATALOG_BIN=target/debug/examples/parts_catalog \\
        python -m pytest tests/interop/python/test_results.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from test_robot_arm import BIN, MODES, Conn, Result, run, tool_dicts

CATALOG = Path(os.environ.get("PARTS_CATALOG_BIN", BIN.parent / "parts_catalog"))


def accepted(tools: dict[str, dict[str, Any]], name: str, result: Result) -> Any:
    """The structuredContent, checked against the published outputSchema."""
    Draft202012Validator(tools[name]["outputSchema"]).validate(result.structured)
    return result.structured


@pytest.mark.parametrize("mode", MODES)
def test_projections_select_what_the_model_asks_for(mode: str) -> None:
    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        schema = tools["read_ft_sensor"]["inputSchema"]["properties"]["jmespath"]
        assert schema["type"] == "string" and schema["maxLength"] == 512

        r = await conn.call("read_ft_sensor", {"jmespath": "readings[?axis=='Fz'].unit"})
        assert not r.is_error, r
        assert accepted(tools, "read_ft_sensor", r) == {"projection": ["N"]}
        assert json.loads(r.text) == ["N"], "the text block is the projected value"

        # A scalar, an object made from the result, and nothing.
        r = await conn.call("get_arm_state", {"jmespath": "position.z"})
        assert accepted(tools, "get_arm_state", r) == {"projection": 400.0}
        r = await conn.call("get_arm_state", {"jmespath": "{names: objects[].name, moving: moving}"})
        assert accepted(tools, "get_arm_state", r) == {
            "projection": {"names": ["red_cube", "glass_bottle", "sponge"], "moving": False}
        }
        r = await conn.call("get_arm_state", {"jmespath": "no_such_field"})
        assert accepted(tools, "get_arm_state", r) == {"projection": None}
        assert r.text == "null"

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_an_invalid_projection_says_how_to_fix_it(mode: str) -> None:
    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        # Does not parse: answered before the tool runs.
        r = await conn.call("get_arm_state", {"jmespath": "objects[?name=='sponge'"})
        assert r.is_error
        envelope = accepted(tools, "get_arm_state", r)
        assert envelope["_jmespath_error"].startswith("Parse error"), envelope
        assert envelope["original_keys"] == ["position", "gripper", "moving", "objects"]
        assert envelope["hint"].startswith("The tool did not run."), envelope
        # Cannot apply to any result of the tool (`filter` is always a string): refused before
        # it runs, naming the function and the argument.
        r = await conn.call("read_ft_sensor", {"jmespath": "abs(filter)"})
        assert r.is_error
        envelope = r.structured
        assert "cannot apply to any result of this tool: `abs` takes a number" in envelope["_jmespath_error"], envelope
        assert envelope["hint"].startswith("The tool did not run."), envelope
        # Fails on this result only (`to_number` of the filter's name is null): answered after
        # the read-only tool ran, with the result's keys.
        r = await conn.call("read_ft_sensor", {"jmespath": "abs(to_number(filter))"})
        assert not r.is_error
        envelope = accepted(tools, "read_ft_sensor", r)
        assert "expects type number" in envelope["_jmespath_error"], envelope
        assert envelope["original_keys"] == ["filter", "readings"]

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_summaries_count_and_sample_each_list(mode: str) -> None:
    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        r = await conn.call("get_arm_state", {"summary": True})
        summary = accepted(tools, "get_arm_state", r)["summary"]
        assert summary["objects"]["count"] == 3
        assert [o["name"] for o in summary["objects"]["samples"]] == ["red_cube", "glass_bottle", "sponge"]
        assert summary["position"] == {"x": 300.0, "y": 0.0, "z": 400.0}

        waypoints = [{"x": 300 + i, "y": 0, "z": 200} for i in range(40)]
        r = await conn.call("plan_trajectory", {"waypoints": waypoints, "summary": True})
        summary = accepted(tools, "plan_trajectory", r)["summary"]
        # A segment per waypoint, the first from where the arm is.
        assert summary["segments"]["count"] == 40
        assert [s["to"] for s in summary["segments"]["samples"]] == [0, 20, 39]
        assert summary["start"] == {"x": 300.0, "y": 0.0, "z": 400.0}

        # With a projection in the same call: refused, naming both.
        r = await conn.call("plan_trajectory", {"waypoints": waypoints[:2], "summary": True, "jmespath": "total_length"})
        assert r.is_error
        assert "summary: cannot be combined with `jmespath`" in r.text, r.text

    run(body, mode)


@pytest.mark.parametrize("mode", MODES)
def test_an_over_budget_result_becomes_an_envelope(mode: str) -> None:
    async def body(conn: Conn) -> None:
        tools = tool_dicts(await conn.list_tools())
        r = await conn.call("find_parts", {})
        assert not r.is_error
        envelope = accepted(tools, "find_parts", r)
        assert envelope["_budget_exceeded"] is True
        assert envelope["budget_bytes"] == 512
        assert envelope["actual_bytes"] > 512
        assert "`jmespath` and `summary`" in envelope["hint"], envelope
        # Asking for less, as the hint says: each fits.
        r = await conn.call("find_parts", {"summary": True})
        assert accepted(tools, "find_parts", r)["summary"]["parts"]["count"] == 6
        r = await conn.call("find_parts", {"jmespath": "parts[].number"})
        assert len(accepted(tools, "find_parts", r)["projection"]) == 6
        r = await conn.call("find_parts", {"kind": "gripper"})
        assert [p["kind"] for p in accepted(tools, "find_parts", r)["parts"]] == ["gripper"] * 3

    run(body, mode, bin=CATALOG)
