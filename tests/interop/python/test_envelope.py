"""The robot arm's envelope (where the `arm` may go, declared once on the resource), driven by the
official Python MCP SDK (PyPI `mcp`) over stdio and streamable HTTP, against
`robot_arm serve --confirm=on`: motions that leave the envelope are refused before the user is
asked, nothing moves, and motions just inside it are asked, accepted and run.

The arm's envelope (frame `base`, mm, tool radius 15): the tool point stays within 850 mm of the
shoulder (0, 0, 100) (allowed sphere `reach`, radius 865 less the tool), above the table, more
than 150 mm from the shoulder (keep-out `base_column`), more than 65 mm from the axis of the
camera mast at (-450, 450) (keep-out `camera_mast`, a vertical cylinder of radius 50), and one
straight motion travels at most 1000 mm (`maxStep`). Home is (300, 0, 400).

- 1.x (`ClientSession`, protocol 2025-11-25) and 2.x in `legacy` mode: a motion that runs is
  confirmed through `elicitation/create`; a refused one asks nothing.
- 2.x in its default mode (protocol 2026-07-28): a motion that runs is confirmed through an
  `input_required` round; a refused one is answered in its first round, with no
  `input_required` (checked by hand with `allow_input_required=True`), and the elicitation
  callback is never called.

Also the published form (`_meta["io.toolwright/envelope"]` in `tools/list`) as each client sees
it, and `serve --envelope FILE`: a narrowing file is served and published, a widening or
otherwise invalid one stops `serve`.

    ROBOT_ARM_BIN=target/debug/examples/robot_arm python -m pytest tests/interop/python/test_envelope.py
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from typing import Any

import pytest

from mcp import types

from test_robot_arm import BIN, HOME, MCP_MAJOR, MODES, attr
from test_safe_actuation import CASES, User, arm_state, call, run

ENVELOPE_KEY = "io.toolwright/envelope"

# What every motion tool publishes about the arm's envelope, besides which arguments it moves to.
ARM_ENVELOPE = {
    "resource": "arm",
    "frame": "base",
    "unit": "mm",
    "toolRadius": 15,
    "allow": [
        {"name": "reach", "sphere": {"center": [0, 0, 100], "radius": 865}},
        {"name": "above_table", "box": {"min": [-865, -865, 0], "max": [865, 865, 965]}},
    ],
    "keepOut": [
        {"name": "base_column", "sphere": {"center": [0, 0, 100], "radius": 135}},
        {"name": "camera_mast", "cylinder": {"center": [-450, 450], "radius": 50, "zMin": 0, "zMax": 1400}},
    ],
    "maxStep": 1000,
}
# The arguments each motion tool moves the arm to: a target (JSON pointers into the arguments)
# or a path (the array, and pointers into one of its items).
WHERE = {
    "move_arm_to_pose": {"target": ["/x", "/y", "/z"]},
    "grasp_object_force_control": {"target": ["/target_position/x", "/target_position/y", "/target_position/z"]},
    "plan_trajectory": {"path": {"array": "/waypoints", "point": ["/x", "/y", "/z"]}},
    "follow_trajectory": {"path": {"array": "/waypoints", "point": ["/x", "/y", "/z"]}},
}

MAST = "keep-out `camera_mast` (vertical cylinder, axis at (-450, 450) mm, radius 50 mm, z from 0 to 1400 mm)"


def point(x: float, y: float, z: float) -> dict[str, float]:
    return {"x": x, "y": y, "z": z}


def header(tool: str) -> str:
    return f"Motion of `{tool}` refused by the envelope of `arm` (frame `base`; 1 problem):"


def footer(tool: str) -> str:
    return f"`{tool}` did not run: nothing moved, and the user was not asked. Change the motion as above and call it again."


def question(p: dict[str, float]) -> str:
    return f"Move the arm to ({p['x']} mm, {p['y']} mm, {p['z']} mm) at 0.5 of full speed?"


# (id, motions accepted first, the refused call, what its one problem says: fragments in order)
REFUSALS = [
    (
        "outside-reach",
        [],
        ("move_arm_to_pose", point(800, 800, 100)),
        ["- the target (800, 800, 100) mm is outside the allowed sphere `reach` (centre (0, 0, 100) mm, radius 865 mm): ",
         "it is 1131.4 mm from the centre, the most allowed is 850 mm with the tool's 15 mm radius. ",
         "The nearest allowed point is (601, 601, 100) mm."],
    ),
    (
        "inside-mast",
        [],
        ("move_arm_to_pose", point(-450, 450, 300)),
        [f"- the target (-450, 450, 300) mm is inside {MAST}. ",
         "Choose a point clear of it, such as (-368, 450, 300) mm."],
    ),
    (
        # 65 mm from the mast's axis: on the boundary of the keep-out grown by the tool's radius.
        "at-mast-boundary",
        [],
        ("move_arm_to_pose", point(-385, 450, 300)),
        [f"- the target (-385, 450, 300) mm is only 15 mm from {MAST}, and the tool needs more than 15 mm."],
    ),
    (
        "grasp-inside-mast",
        [],
        ("grasp_object_force_control", {"target_position": point(-450, 450, 100)}),
        [f"- the target (-450, 450, 100) mm is inside {MAST}. "],
    ),
    (
        "path-through-mast",
        [point(-450, 250, 300)],
        ("move_arm_to_pose", point(-450, 650, 300)),
        ["- the straight path from the current position (-450, 250, 300) mm to the target (-450, 650, 300) mm ",
         f"enters {MAST}: it goes through it at (-450, 450, 300) mm. ",
         "Go around it: move first to (-368, 450, 300) mm, then to the target."],
    ),
    (
        "over-max-step",
        [],
        ("move_arm_to_pose", point(-650, -300, 300)),
        ["- the motion from the current position (300, 0, 400) mm to the target (-650, -300, 300) mm is 1001.2 mm long; ",
         "the most one straight motion may travel is 1000 mm: move there in 2 steps, the first to (-175, -150, 350) mm."],
    ),
]
# A trajectory whose segment from waypoint 0 to waypoint 1 (the path's second segment: the first
# runs from where the arm is to waypoint 0) crosses the mast; planning only is refused too.
CROSSING_WAYPOINTS = [point(-450, 250, 300), point(-450, 650, 300), point(-200, 650, 300)]
CROSSING_SEGMENT = [
    "- the straight path from waypoint 0 (-450, 250, 300) mm to waypoint 1 (-450, 650, 300) mm ",
    f"enters {MAST}: it goes through it at (-450, 450, 300) mm. ",
    "Go around it: add a waypoint between them such as (-368, 450, 300) mm.",
]
for tool in ("plan_trajectory", "follow_trajectory"):
    REFUSALS.append((
        f"trajectory-crossing-{tool}",
        [],
        (tool, {"waypoints": CROSSING_WAYPOINTS}),
        CROSSING_SEGMENT,
    ))


async def move(session: Any, user: User, to: dict[str, float]) -> None:
    """A motion the envelope allows: asked, accepted, and the arm is there, at rest."""
    asked = len(user.asked)
    is_error, moved, text = await call(session, "move_arm_to_pose", to)
    assert not is_error, text
    assert user.asked[asked:] == [question(to)], user.asked
    assert moved["position"] == {k: float(v) for k, v in to.items()}, moved
    state = await arm_state(session)
    assert state["position"] == moved["position"] and state["moving"] is False, state


async def refused(session: Any, mode: str, user: User, tool: str, arguments: dict[str, Any],
                  problem: list[str]) -> str:
    """A call the envelope refuses: the refusal names the problem, nothing moved and nothing was
    asked (on 2026-07-28 the first round is the answer: no `input_required`)."""
    before = await arm_state(session)
    assert before["moving"] is False, before
    asked = list(user.asked)
    texts = []
    if MCP_MAJOR >= 2 and mode == "auto":
        first = await session.session.call_tool(tool, arguments, allow_input_required=True)
        assert isinstance(first, types.CallToolResult), f"an input_required round for a refused motion: {first}"
        assert first.is_error and first.structured_content is None, first
        texts.append(first.content[0].text)
    is_error, structured, text = await call(session, tool, arguments)
    assert is_error and structured is None, text
    texts.append(text)
    for text in texts:
        lines = text.split("\n")
        assert len(lines) == 3, text
        assert lines[0] == header(tool), text
        assert lines[2] == footer(tool), text
        at = 0
        for fragment in problem:
            found = lines[1].find(fragment, at)
            assert found >= 0, f"{fragment!r} not in (or out of order in) {lines[1]!r}"
            at = found + len(fragment)
    assert user.asked == asked, "the user was asked about a motion that cannot run"
    after = await arm_state(session)
    assert after == before, "the arm changed"
    return texts[-1]


@pytest.mark.parametrize("transport,mode", CASES)
@pytest.mark.parametrize("before,refusal,problem", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_motion_outside_the_envelope_is_refused_before_the_user_is_asked(
    transport: str, mode: str, before: list[dict[str, float]], refusal: tuple[str, dict[str, Any]],
    problem: list[str],
) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        assert (await arm_state(session))["position"] == HOME
        for to in before:
            await move(session, user, to)
        tool, arguments = refusal
        await refused(session, mode, user, tool, arguments, problem)
        # Still usable: a motion inside the envelope is asked and runs.
        await move(session, user, point(300, 0, 300))

    run(body, transport, mode, user)


# Targets just inside the envelope, each reached from home in one motion.
JUST_INSIDE = [
    ("reach-edge", point(0, 849, 100)),
    ("reach-boundary", point(0, 850, 100)),  # 850 mm from the shoulder: on the allowed boundary
    ("reach-diagonal", point(601, 601, 100)),  # 849.97 mm from the shoulder
    ("beside-mast", point(-384, 450, 300)),  # 66 mm from the mast's axis
    ("under-max-step", point(-648, -300, 300)),  # 999.4 mm from home
]


@pytest.mark.parametrize("transport,mode", CASES)
@pytest.mark.parametrize("to", [t for _, t in JUST_INSIDE], ids=[i for i, _ in JUST_INSIDE])
def test_a_target_just_inside_the_envelope_is_asked_and_reached(transport: str, mode: str, to: dict[str, float]) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        assert (await arm_state(session))["position"] == HOME
        await move(session, user, to)
        assert len(user.asked) == 1

    run(body, transport, mode, user)


@pytest.mark.parametrize("transport,mode", CASES)
def test_a_trajectory_around_the_mast_plans_and_runs(transport: str, mode: str) -> None:
    """The crossing trajectory with the waypoint the refusal suggests: planned, then run."""
    around = [CROSSING_WAYPOINTS[0], point(-368, 450, 300), *CROSSING_WAYPOINTS[1:]]
    user = User("accept")

    async def body(session: Any) -> None:
        is_error, plan, text = await call(session, "plan_trajectory", {"waypoints": around})
        assert not is_error, text
        # The first segment runs from where the arm is to waypoint 0.
        assert [s["to"] for s in plan["segments"]] == [0, 1, 2, 3], plan
        assert (await arm_state(session))["position"] == HOME, "planning moved the arm"
        assert user.asked == []  # planning asks no one: it moves nothing
        is_error, _, text = await call(session, "follow_trajectory", {"waypoints": around})
        assert not is_error, text
        state = await arm_state(session)
        assert state["position"] == {k: float(v) for k, v in around[-1].items()} and state["moving"] is False, state
        # The motion asked first, showing the path, its length and its duration.
        [question] = user.asked
        assert question.startswith("Move the arm along [{x: -450 mm, y: 250 mm, z: 300 mm}, "), question
        assert question.endswith(f" at 0.5 of full speed (4 waypoints, {plan['total_length']:.0f} mm in all, "
                                 f"about {plan['estimated_duration']:.1f} s)?"), (question, plan)

    run(body, transport, mode, user)


def tool_meta(tool: Any) -> dict[str, Any]:
    return attr(tool, "meta") or {}


@pytest.mark.parametrize("transport,mode", CASES)
def test_tools_list_publishes_the_envelope_of_each_motion_tool(transport: str, mode: str) -> None:
    async def body(session: Any) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        published = {name: tool_meta(t)[ENVELOPE_KEY] for name, t in tools.items() if ENVELOPE_KEY in tool_meta(t)}
        assert published == {name: {**ARM_ENVELOPE, **where} for name, where in WHERE.items()}
        # The pointers name the published arguments.
        move = attr(tools["move_arm_to_pose"], "inputSchema", "input_schema")["properties"]
        assert all(p[1:] in move for p in published["move_arm_to_pose"]["target"])
        grasp = attr(tools["grasp_object_force_control"], "inputSchema", "input_schema")["properties"]
        assert set(grasp["target_position"]["properties"]) == {"x", "y", "z"}
        plan = attr(tools["plan_trajectory"], "inputSchema", "input_schema")["properties"]
        assert set(plan["waypoints"]["items"]["properties"]) == {"x", "y", "z"}

    run(body, transport, mode, User("accept"))


# ------------------------------------------------------------------------------------------------
# serve --envelope FILE: an operator narrows the declared envelope at start-up

OPERATOR_ZONE = {"name": "operator_zone", "box": {"min": [100, -100, 0], "max": [200, 100, 500]}}
NARROWING = {"arm": {"keepOut": [OPERATOR_ZONE], "maxStep": 500}}


def envelope_file(content: Any) -> Any:
    f = tempfile.NamedTemporaryFile("w", prefix="envelope-", suffix=".json")
    f.write(content if isinstance(content, str) else json.dumps(content))
    f.flush()
    return f


@pytest.mark.parametrize("mode", MODES)
def test_serve_envelope_narrows_what_is_published_and_refused(mode: str) -> None:
    user = User("accept")
    narrowed = {**ARM_ENVELOPE, "keepOut": [*ARM_ENVELOPE["keepOut"], OPERATOR_ZONE], "maxStep": 500}

    async def body(session: Any) -> None:
        tools = (await session.list_tools()).tools
        published = {t.name: tool_meta(t)[ENVELOPE_KEY] for t in tools if ENVELOPE_KEY in tool_meta(t)}
        assert published == {name: {**narrowed, **where} for name, where in WHERE.items()}
        # Into the operator's zone (allowed by the declared envelope: see below, after the restart).
        await refused(session, mode, user, "move_arm_to_pose", point(150, 0, 300), [
            "- the target (150, 0, 300) mm is inside keep-out `operator_zone` (box (100, -100, 0) to (200, 100, 500) mm). ",
            "Choose a point clear of it, such as (150, 0, 628) mm.",
        ])
        # 550 mm in one straight motion: within the declared 1000 mm, beyond the operator's 500 mm.
        await refused(session, mode, user, "move_arm_to_pose", point(300, 550, 400), [
            "- the motion from the current position (300, 0, 400) mm to the target (300, 550, 400) mm is 550 mm long; ",
            "the most one straight motion may travel is 500 mm",
        ])
        await move(session, user, point(300, 450, 400))

    with envelope_file(NARROWING) as f:
        run(body, "stdio", mode, user, ["--envelope", f.name])

    # Without the file, the same motions are allowed: the refusals above were the operator's.
    plain = User("accept")

    async def unnarrowed(session: Any) -> None:
        await move(session, plain, point(300, 550, 400))
        await move(session, plain, point(150, 0, 300))

    run(unnarrowed, "stdio", mode, plain)


# (id, file content, what `serve` says on stderr)
BAD_NARROWINGS = [
    ("widening-max-step", {"arm": {"maxStep": 2000}},
     "the envelopes' narrowing: maxStep 2000 would widen the declared 1000 mm of resource `arm` (a narrowing may only lower it)"),
    ("unknown-resource", {"arms": {"maxStep": 500}},
     "`arms`: no resource of that name declares an envelope (did you mean `arm`?)"),
    ("other-unit", {"arm": {"unit": "m", "maxStep": 0.5}},
     "unit `m` differs from the declared `mm` of resource `arm`"),
    ("other-frame", {"arm": {"frame": "world"}},
     "frame `world` differs from the declared `base` of resource `arm`"),
    ("unnamed-keep-out", {"arm": {"keepOut": [{"box": OPERATOR_ZONE["box"]}]}},
     "has no name: every keep-out needs one"),
    ("malformed", '{"arm": {"maxStep": 2000', "EOF while parsing an object"),
    # A repeated key would silently replace the first: the narrowing would be lost (issue 43).
    ("repeated-resource", '{"arm": {"allow": [{"box": {"min": [0, -300, 0], "max": [400, 300, 500]}}]},\n "arm": {}}',
     "the key `arm` appears twice in one object"),
    ("repeated-limit", '{"arm": {"maxStep": 100,\n\n  "maxStep": 900}}',
     "the key `maxStep` appears twice in one object (a repeated key would silently replace the first; write each key once) at line 3"),
]


@pytest.mark.parametrize("content,message", [b[1:] for b in BAD_NARROWINGS], ids=[b[0] for b in BAD_NARROWINGS])
def test_serve_envelope_refuses_to_start_on_a_file_that_does_not_narrow(content: Any, message: str) -> None:
    assert BIN.is_file(), f"{BIN} does not exist: run `cargo build --examples` or set ROBOT_ARM_BIN"
    with envelope_file(content) as f:
        # stdin open and silent: a server that started would wait for its client until the timeout.
        proc = subprocess.Popen([str(BIN), "serve", "--envelope", f.name], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={"ROBOT_ARM_TIME_SCALE": "0", "RUST_LOG": "warn"})
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"serve started with {content!r}:\n{err}")
    assert proc.returncode not in (0, None), (proc.returncode, err)
    assert message in err, err
    assert out == "", "nothing was served on stdout"
