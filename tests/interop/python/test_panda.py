"""The Franka Panda example (`examples/panda`: the arm read from its URDF when the crate
compiles, every link checked along the whole motion) driven by the official Python MCP SDK (PyPI
`mcp`, the 1.x and the 2.x line, each connection mode), over stdio and streamable HTTP, against
`panda serve --confirm=on` with a user who accepts every question:

- a joint beyond its limit is refused by the published schema, before anyone is asked;
- a configuration whose elbow enters the shelf while the tool point stays well clear of it is
  refused naming the link and the shelf: nobody was asked and nothing moved;
- a configuration that clears every keep-out by more than the published bound (`tolerance`)
  along the whole motion is asked once, accepted and reached;
- a motion at `speed = 1` takes at least what the joints' velocity caps (and acceleration and
  deceleration caps) allow: the simulated duration the tool reports, never wall time;
- `serve --envelope FILE` narrowing applies to every link: a keep-out an operator adds where the
  elbow goes (and the tool point does not) refuses a motion the declared envelope accepts.

The preconditions (where the tool point and each link go) are computed here, independently of
the server: forward kinematics from the example's own URDF (`examples/robots/`), the link
capsules the server publishes (`_meta["io.toolwright/robot"]`), and distances to the published
shapes (`_meta["io.toolwright/envelope"]`) sampled densely along the joint-space path.

    PANDA_BIN=target/debug/examples/panda python -m pytest tests/interop/python/test_panda.py
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mcp import types

from test_robot_arm import MCP_MAJOR, REPO, attr
from test_safe_actuation import CASES, User, call, run

PANDA = Path(os.environ.get("PANDA_BIN", REPO / "target" / "debug" / "examples" / "panda"))
URDF = REPO / "examples" / "robots" / "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf"
ROBOT_KEY = "io.toolwright/robot"
ENVELOPE_KEY = "io.toolwright/envelope"
JOINTS = [f"panda_joint{i}" for i in range(1, 8)]

# The home configuration (the SRDF's `default`), and three motions from it:
# - LEAN: the upper arm leans back and the elbow folds, into the shelf behind the arm, while the
#   tool point stays far in front of it;
# - CLEAR: the arm bends forward over the table, clear of everything.
HOME = [0.0, -0.785398, 0.0, -2.35619, 0.0, 1.5707, 0.785398]
LEAN = [0.0, -1.3, 0.0, -2.6, 0.0, 1.5707, 0.785398]
CLEAR = [0.0, -0.3, 0.0, -2.0, 0.0, 1.9, 0.785398]
# - ROTATE: the arm turns on its base, the elbow swinging round behind it, the tool point in
#   front.
ROTATE = [1.5, -0.785398, 0.0, -2.35619, 0.0, 1.5707, 0.785398]


# --- An independent model of the arm: the URDF's kinematics, the published capsules. ---------

def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _apply(r: list[list[float]], v: list[float]) -> list[float]:
    return [sum(r[i][k] * v[k] for k in range(3)) for i in range(3)]


def _rpy(r: float, p: float, y: float) -> list[list[float]]:
    """URDF's fixed-axis roll, pitch, yaw: Rz(y) Ry(p) Rx(r)."""
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return [
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ]


def _about(axis: list[float], angle: float) -> list[list[float]]:
    """Rotation by `angle` about the unit `axis` (Rodrigues)."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    t = 1 - c
    return [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ]


@functools.lru_cache(maxsize=None)
def urdf_joints() -> dict[str, dict[str, Any]]:
    """Each joint of the URDF by its child link: type, parent, origin, axis."""
    joints = {}
    for j in ET.parse(URDF).getroot().iter("joint"):
        origin = j.find("origin")
        xyz = [float(v) for v in (origin.get("xyz", "0 0 0") if origin is not None else "0 0 0").split()]
        rpy = [float(v) for v in (origin.get("rpy", "0 0 0") if origin is not None else "0 0 0").split()]
        axis = j.find("axis")
        joints[j.find("child").get("link")] = {
            "name": j.get("name"), "type": j.get("type"), "parent": j.find("parent").get("link"),
            "xyz": [1000.0 * v for v in xyz], "rot": _rpy(*rpy),
            "axis": [float(v) for v in axis.get("xyz").split()] if axis is not None else [1.0, 0.0, 0.0],
        }
    return joints


def link_poses(q: list[float]) -> dict[str, tuple[list[list[float]], list[float]]]:
    """Every link's frame in the base frame (mm) at the arm's joint positions `q` (the
    fingers at 0: their published capsules hold them over their whole travel)."""
    values = dict(zip(JOINTS, q))
    joints = urdf_joints()
    poses: dict[str, tuple[list[list[float]], list[float]]] = {}

    def pose(link: str) -> tuple[list[list[float]], list[float]]:
        if link in poses:
            return poses[link]
        j = joints.get(link)
        if j is None:  # the root
            poses[link] = ([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], [0.0, 0.0, 0.0])
            return poses[link]
        r, t = pose(j["parent"])
        rot = _matmul(r, j["rot"])
        at = [a + b for a, b in zip(t, _apply(r, j["xyz"]))]
        if j["type"] in ("revolute", "continuous"):
            rot = _matmul(rot, _about(j["axis"], values.get(j["name"], 0.0)))
        poses[link] = (rot, at)
        return poses[link]

    for link in joints:
        pose(link)
    return poses


def tool_point(q: list[float]) -> list[float]:
    return link_poses(q)["panda_hand_tcp"][1]


def points_of(robot: dict[str, Any], q: list[float], step: float = 2.0):
    """(link, point, radius) along every published capsule's axis at `q`, at most `step` mm
    apart."""
    poses = link_poses(q)
    for link in robot["links"]:
        r, t = poses[link["name"]]
        for c in link["capsules"]:
            a = [x + y for x, y in zip(_apply(r, c["a"]), t)]
            b = [x + y for x, y in zip(_apply(r, c["b"]), t)]
            n = max(1, math.ceil(math.dist(a, b) / step))
            for i in range(n + 1):
                s = i / n
                yield link["name"], [x + s * (y - x) for x, y in zip(a, b)], c["radius"]


def signed_distance(shape: dict[str, Any], p: list[float]) -> float:
    """How far `p` is outside `shape` (negative: how deep inside)."""
    if "box" in shape:
        lo, hi = shape["box"]["min"], shape["box"]["max"]
        out = [max(lo[i] - p[i], p[i] - hi[i]) for i in range(3)]
        if max(out) > 0:
            return math.sqrt(sum(max(o, 0.0) ** 2 for o in out))
        return max(out)
    if "sphere" in shape:
        return math.dist(p, shape["sphere"]["center"]) - shape["sphere"]["radius"]
    c = shape["cylinder"]
    radial = math.hypot(p[0] - c["center"][0], p[1] - c["center"][1]) - c["radius"]
    vertical = max(c["zMin"] - p[2], p[2] - c["zMax"])
    if radial > 0 or vertical > 0:
        return math.hypot(max(radial, 0.0), max(vertical, 0.0))
    return max(radial, vertical)


def clearances(robot: dict[str, Any], envelope: dict[str, Any], q: list[float]) -> dict[str, tuple[float, str]]:
    """For each shape of the envelope, the least clearance of any link at `q` (mm; negative:
    the link is in a keep-out, or out of an allow shape) and that link."""
    shapes = [(s, True) for s in envelope.get("keepOut", [])] + [(s, False) for s in envelope.get("allow", [])]
    least = {s["name"]: (math.inf, "") for s, _ in shapes}
    for link, p, radius in points_of(robot, q):
        for shape, keep_out in shapes:
            d = signed_distance(shape, p)
            c = (d if keep_out else -d) - radius
            if c < least[shape["name"]][0]:
                least[shape["name"]] = (c, link)
    return least


def along(start: list[float], end: list[float], steps: int = 100) -> list[list[float]]:
    return [[a + i / steps * (b - a) for a, b in zip(start, end)] for i in range(steps + 1)]


@functools.lru_cache(maxsize=None)
def swept(published: str, start: tuple[float, ...], end: tuple[float, ...]):
    """Along the motion from `start` to `end` (sampled): the least clearance to each shape with
    its link, the links found in each shape, the least distance of the tool point to each shape,
    and how far any capsule point moves between two samples (what the sampling may miss)."""
    robot, envelope = json.loads(published)
    path = along(list(start), list(end))
    least: dict[str, tuple[float, str]] = {}
    inside: dict[str, set[str]] = {}
    tool: dict[str, float] = {}
    for q in path:
        for name, (c, link) in clearances(robot, envelope, q).items():
            if c < least.get(name, (math.inf, ""))[0]:
                least[name] = (c, link)
        for shape in envelope.get("keepOut", []):
            d = signed_distance(shape, tool_point(q))
            tool[shape["name"]] = min(tool.get(shape["name"], math.inf), d)
            for link, p, radius in points_of(robot, q):
                if signed_distance(shape, p) < radius:
                    inside.setdefault(shape["name"], set()).add(link)
    step = 0.0
    for q0, q1 in zip(path, path[1:]):
        a = [p for _, p, _ in points_of(robot, q0, step=50.0)]
        b = [p for _, p, _ in points_of(robot, q1, step=50.0)]
        step = max(step, max(math.dist(x, y) for x, y in zip(a, b)))
    return least, inside, tool, step


# --- Talking to the server. ------------------------------------------------------------------

def positions(q: list[float]) -> dict[str, float]:
    return dict(zip(JOINTS, q))


async def published(session: Any, tool: str = "move_joints") -> tuple[dict[str, Any], dict[str, Any]]:
    listed = await session.list_tools()
    found = next(t for t in listed.tools if t.name == tool)
    meta = attr(found, "meta", "_meta")
    return meta[ROBOT_KEY], meta[ENVELOPE_KEY]


async def state(session: Any) -> dict[str, Any]:
    is_error, out, text = await call(session, "get_state")
    assert not is_error, text
    return out


async def refused_before_asking(session: Any, mode: str, user: User, tool: str,
                                arguments: dict[str, Any]) -> str:
    """A call refused before anyone is asked: `isError`, no question (on 2026-07-28 the first
    round is the answer, no `input_required`), and the arm where it was, at rest."""
    before = await state(session)
    assert before["moving"] is False, before
    asked = list(user.asked)
    texts = []
    if MCP_MAJOR >= 2 and mode == "auto":
        first = await session.session.call_tool(tool, arguments, allow_input_required=True)
        assert isinstance(first, types.CallToolResult), f"an input_required round for a refused motion: {first}"
        assert first.is_error and first.structured_content is None, first
        texts.append(first.content[0].text)
    is_error, out, text = await call(session, tool, arguments)
    assert is_error and out is None, text
    texts.append(text)
    assert texts[0] == texts[-1], texts
    assert user.asked == asked, "the user was asked about a motion that cannot run"
    assert await state(session) == before, "the arm moved"
    return text


def is_question(text: str, speed: float) -> bool:
    """Whether `text` is move_joints' question: the joint goal shown joint by joint, in rad,
    then the speed."""
    return (
        text.startswith("Move the Panda's joints to {panda_joint1: ")
        and all(f"panda_joint{i}: " in text and " rad" in text for i in range(1, 8))
        and text.endswith(f"}} at {speed:g} of full speed?")
    )


def least_duration(robot: dict[str, Any], start: list[float], end: list[float], speed: float) -> tuple[float, float]:
    """The least time a motion from `start` to `end` may take at `speed` (a fraction of the
    caps): by the velocity caps alone, and with the acceleration and deceleration caps (each
    joint's own fastest trapezoid; moving in step can only be slower)."""
    by_velocity = by_profile = 0.0
    for joint, a, b in zip(robot["joints"], start, end):
        d = abs(b - a)
        v = joint["maxVelocity"] * speed
        by_velocity = max(by_velocity, d / v)
        acc = joint.get("maxAcceleration")
        if acc is None:
            by_profile = max(by_profile, d / v)
            continue
        acc *= speed * speed
        dec = joint.get("maxDeceleration", joint["maxAcceleration"]) * speed * speed
        ramps = v * v / (2 * acc) + v * v / (2 * dec)
        if d >= ramps:
            t = d / v + v / (2 * acc) + v / (2 * dec)
        else:
            # Never reaches the cap: accelerate, then decelerate, to the peak both allow.
            peak = math.sqrt(2 * d * acc * dec / (acc + dec))
            t = peak / acc + peak / dec
        by_profile = max(by_profile, t)
    return by_velocity, by_profile


# --- The tests. ------------------------------------------------------------------------------

def test_the_model_here_agrees_with_the_panda_s_published_data() -> None:
    """The independent kinematics: the flange at q = 0 is where Franka's documentation puts it
    (0.088, 0, 0.926) m, and the home tool point is in front of the arm, above the table."""
    flange = link_poses([0.0] * 7)["panda_link8"][1]
    assert all(abs(a - b) < 1e-6 for a, b in zip(flange, [88.0, 0.0, 926.0])), flange
    home = tool_point(HOME)
    assert home[0] > 250 and home[2] > 300, home


@pytest.mark.parametrize("transport,mode", CASES)
def test_a_joint_beyond_its_limit_is_refused_by_the_schema(transport: str, mode: str) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        robot, _ = await published(session)
        assert robot["home"]["joints"] == positions(HOME), robot["home"]
        joint = robot["joints"][0]
        assert joint["name"] == "panda_joint1" and joint["unit"] == "rad"
        # The margin (0.01 rad) narrows the URDF's ±2.8973.
        assert joint["upper"] == 2.8873, joint
        beyond = positions(HOME) | {"panda_joint1": joint["upper"] + 0.01}
        text = await refused_before_asking(session, mode, user, "move_joints", {"positions": beyond})
        assert "positions.panda_joint1" in text and "2.8873" in text, text
        assert "did not run" in text or "Fix the arguments" in text, text
        # At a limit itself, it runs (the wrist: turning joint 1 that far swings the hand into
        # the shelf).
        wrist = robot["joints"][6]
        assert wrist["name"] == "panda_joint7" and wrist["upper"] == 2.8873, wrist
        at_limit = positions(HOME) | {"panda_joint7": wrist["upper"]}
        is_error, out, text = await call(session, "move_joints", {"positions": at_limit})
        assert not is_error, text
        assert out["positions"]["panda_joint7"] == wrist["upper"], out
        assert len(user.asked) == 1 and is_question(user.asked[0], 0.5), user.asked

    run(body, transport, mode, user, binary=PANDA)


@pytest.mark.parametrize("transport,mode", CASES)
def test_the_elbow_entering_the_shelf_is_refused_naming_the_link(transport: str, mode: str) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        robot, envelope = await published(session)
        assert [s["name"] for s in envelope["keepOut"]] == ["table", "shelf", "post"], envelope
        least, inside, tool, _ = swept(json.dumps([robot, envelope]), tuple(HOME), tuple(LEAN))
        # The tool point stays far from the shelf all along: a check of it alone would pass.
        assert tool["shelf"] > 300, tool
        # .. while links of the arm go into it.
        assert least["shelf"][0] < 0 and inside["shelf"], (least, inside)
        text = await refused_before_asking(session, mode, user, "move_joints", {"positions": positions(LEAN)})
        found = re.match(r"Robot `arm`: link `(\w+)`", text)
        assert found, text
        assert found.group(1) in inside["shelf"], (found.group(1), inside["shelf"], text)
        assert not found.group(1).startswith("panda_hand"), text
        assert "keep-out `shelf`" in text, text
        assert "panda_joint2" in text, text  # the joint values where it touches
        # What is allowed (the bound it must clear by), how to go around, and that nothing ran.
        assert f"more than {robot['tolerance']:g} mm clear" in text, text
        assert "Go around it" in text and "nothing moved" in text, text
        assert user.asked == [], user.asked

    run(body, transport, mode, user, binary=PANDA)


@pytest.mark.parametrize("transport,mode", CASES)
def test_a_configuration_clear_by_more_than_the_bound_is_accepted_and_reached(transport: str, mode: str) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        robot, envelope = await published(session)
        bound = robot["tolerance"]
        assert robot["unit"] == "mm" and 0 < bound <= 20, robot["tolerance"]
        least, _, _, step = swept(json.dumps([robot, envelope]), tuple(HOME), tuple(CLEAR))
        # Every link clears every shape by more than the bound, all along (what sampling may
        # miss between two samples included).
        for name, (c, link) in least.items():
            assert c - step > bound, (name, c, link, step)
        before = await state(session)
        assert [before["joints"][j] for j in JOINTS] == HOME, before
        is_error, out, text = await call(session, "move_joints", {"positions": positions(CLEAR)})
        assert not is_error, text
        assert len(user.asked) == 1 and is_question(user.asked[0], 0.5), user.asked
        assert out["positions"] == positions(CLEAR) and out["interrupted"] is False, out
        after = await state(session)
        assert after["joints"] == positions(CLEAR) and after["moving"] is False, after
        # The tool point reported is where the kinematics here put it.
        reported = [after["tool"]["position"][k] for k in "xyz"]
        assert math.dist(reported, tool_point(CLEAR)) < 0.01, (reported, tool_point(CLEAR))

    run(body, transport, mode, user, binary=PANDA)


@pytest.mark.parametrize("transport,mode", CASES)
def test_a_motion_at_full_speed_takes_at_least_what_the_caps_allow(transport: str, mode: str) -> None:
    user = User("accept")

    async def body(session: Any) -> None:
        robot, _ = await published(session)
        assert all("maxAcceleration" in j for j in robot["joints"]), robot["joints"]
        is_error, out, text = await call(session, "move_joints", {"positions": positions(CLEAR), "speed": 1.0})
        assert not is_error, text
        by_velocity, by_profile = least_duration(robot, HOME, CLEAR, 1.0)
        # Joint 2 turns 0.485 rad at most 2.175 rad/s: 0.223 s at the least.
        assert by_velocity > 0.2, by_velocity
        assert out["duration"] >= by_velocity, (out["duration"], by_velocity)
        assert out["duration"] >= by_profile - 1e-9, (out["duration"], by_profile)
        # Back home at half speed: every cap halved (accelerations quartered), at least twice
        # as long.
        is_error, back, text = await call(session, "move_joints", {"positions": positions(HOME), "speed": 0.5})
        assert not is_error, text
        _, half = least_duration(robot, CLEAR, HOME, 0.5)
        assert back["duration"] >= half - 1e-9 and back["duration"] >= 2 * by_velocity, (back, half)
        assert len(user.asked) == 2, user.asked
        assert is_question(user.asked[0], 1.0) and is_question(user.asked[1], 0.5), user.asked

    run(body, transport, mode, user, binary=PANDA)


def panel_where_the_elbow_goes(robot: dict[str, Any]) -> dict[str, Any]:
    """A keep-out an operator adds: a box where the elbow goes when the arm turns on its base
    (ROTATE), far from the tool point all along, and clear of the arm at home."""
    elbow = link_poses(ROTATE)["panda_link4"][1]
    half = 25.0
    panel = {"name": "panel", "box": {"min": [round(c - half) for c in elbow],
                                      "max": [round(c + half) for c in elbow]}}
    at_home = clearances(robot, {"keepOut": [panel]}, HOME)["panel"][0]
    assert at_home > 50, at_home
    return panel


@pytest.mark.parametrize("transport,mode", CASES)
def test_an_operator_s_narrowing_applies_to_every_link(transport: str, mode: str) -> None:
    user = User("accept")
    declared: dict[str, Any] = {}

    async def declared_accepts(session: Any) -> None:
        robot, envelope = await published(session)
        declared["robot"], declared["envelope"] = robot, envelope
        is_error, out, text = await call(session, "move_joints", {"positions": positions(ROTATE)})
        assert not is_error and out["positions"] == positions(ROTATE), text

    # The declared envelope accepts turning the arm on its base.
    run(declared_accepts, transport, mode, User("accept"), binary=PANDA)
    robot, envelope = declared["robot"], declared["envelope"]
    panel = panel_where_the_elbow_goes(robot)
    narrowed = {**envelope, "keepOut": [*envelope["keepOut"], panel]}
    least, inside, tool, _ = swept(json.dumps([robot, narrowed]), tuple(HOME), tuple(ROTATE))
    # The tool point stays far from the panel; the elbow goes through it.
    assert tool["panel"] > 250, tool
    assert "panda_link4" in inside.get("panel", set()), (least, inside)

    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump({"arm": {"keepOut": [panel]}}, f)
        f.flush()

        async def body(session: Any) -> None:
            _, envelope_now = await published(session)
            # Served and published narrowed, for every tool that moves the arm.
            assert envelope_now["keepOut"] == narrowed["keepOut"], envelope_now
            _, to_envelope = await published(session, "move_to")
            assert to_envelope["keepOut"] == narrowed["keepOut"], to_envelope
            text = await refused_before_asking(session, mode, user, "move_joints",
                                               {"positions": positions(ROTATE)})
            found = re.match(r"Robot `arm`: link `(\w+)`", text)
            assert found and found.group(1) in inside["panel"], (text, inside["panel"])
            assert "keep-out `panel`" in text, text
            assert user.asked == [], user.asked

        run(body, transport, mode, user, ["--envelope", f.name], binary=PANDA)
