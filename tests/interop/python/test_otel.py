"""OpenTelemetry to the MCP conventions (issue 35): the robot arm, built with the `otel` feature,
serves over stdio with `--otlp-endpoint` pointing at a real OTLP/HTTP receiver started here (a
small server decoding the official `opentelemetry-proto` messages from PyPI). The official
Python SDK (1.x and 2.x) calls a motion, a refused motion and a motion stopped at its deadline,
each with a W3C `traceparent` in `_meta` (injected here: the SDK sends none without an active
span of its own), and the test checks what the receiver got: span names and kind, the required
and recommended attributes, `error.type`, the parent trace from `_meta`, the trace id the
answer's `_meta` carries, and the duration histogram. Attribute names are checked against the
conventions vendored in `tests/semconv/`. Over streamable HTTP: the session, the client and a
header's link. And a call run as a task on each revision: its body's spans stay its children.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import os
import re
import secrets
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import pytest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from test_tasks import post as post_2026

MCP_MAJOR = int(importlib.metadata.version("mcp").split(".")[0])
REPO = Path(__file__).resolve().parents[3]
BIN = Path(os.environ.get("ROBOT_ARM_BIN", REPO / "target" / "debug" / "examples" / "robot_arm"))
SEMCONV = REPO / "tests" / "semconv" / "opentelemetry-semantic-conventions-0.66b2"


def conventions() -> set[str]:
    """Every attribute and metric name the vendored conventions define."""
    names = set()
    for path in SEMCONV.glob("*.py"):
        names.update(re.findall(r': Final = "([^"]+)"', path.read_text()))
    return names


def value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Receiver:
    """An OTLP/HTTP receiver (protobuf) on a free loopback port, keeping what it is sent."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.metrics: list[Any] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                assert self.headers.get("content-type") == "application/x-protobuf", self.headers
                if self.path == "/v1/traces":
                    request = ExportTraceServiceRequest.FromString(body)
                    with receiver.lock:
                        for resource in request.resource_spans:
                            for scope in resource.scope_spans:
                                receiver.spans.extend(scope.spans)
                    answer = ExportTraceServiceResponse().SerializeToString()
                elif self.path == "/v1/metrics":
                    request = ExportMetricsServiceRequest.FromString(body)
                    with receiver.lock:
                        for resource in request.resource_metrics:
                            for scope in resource.scope_metrics:
                                receiver.metrics.extend(scope.metrics)
                    answer = ExportMetricsServiceResponse().SerializeToString()
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()


def attributes(span: Span) -> dict[str, Any]:
    return {kv.key: value(kv.value) for kv in span.attributes}


async def call(session: Any, name: str, arguments: dict[str, Any], traceparent: str) -> Any:
    """A `tools/call` with `traceparent` in its `_meta`, on either SDK line."""
    return await session.call_tool(name, arguments, meta={"traceparent": traceparent})


def test_spans_and_the_duration_histogram_follow_the_mcp_conventions() -> None:
    assert BIN.is_file(), f"{BIN} does not exist: cargo build --example robot_arm"
    receiver = Receiver()
    # 1/50 of real time (the 30 s deadline is 600 ms); every motion takes 40 times its estimate,
    # so a long motion is stopped at its deadline and the arm halted.
    params = StdioServerParameters(
        command=str(BIN),
        args=["serve", "--confirm=off", "--otlp-endpoint", receiver.url],
        env={"ROBOT_ARM_TIME_SCALE": "0.02", "ROBOT_ARM_MOTOR_LAG": "40", "RUST_LOG": "warn"},
    )
    traces = {what: secrets.token_hex(16) for what in ("motion", "refused", "stopped")}
    parent = secrets.token_hex(8)
    results: dict[str, Any] = {}

    async def body(session: Any) -> None:
        tp = lambda what: f"00-{traces[what]}-{parent}-01"  # noqa: E731
        results["motion"] = await call(session, "move_arm_to_pose", {"x": 300, "y": 10, "z": 400}, tp("motion"))
        results["refused"] = await call(session, "move_arm_to_pose", {"x": 5000, "y": 0, "z": 200}, tp("refused"))
        results["stopped"] = await call(
            session, "move_arm_to_pose", {"x": -600, "y": 0, "z": 300, "speed": 0.5}, tp("stopped"))

    async def main() -> None:
        with anyio.fail_after(120), tempfile.NamedTemporaryFile("w+") as errlog:
            if MCP_MAJOR == 1:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        await body(session)
            else:
                from mcp import Client

                async with Client(stdio_client(params, errlog=errlog)) as client:
                    await body(client)

    try:
        asyncio.run(main())
        # The server flushes its exporters when stdin closes; the receiver may still be busy.
        for _ in range(100):
            with receiver.lock:
                done = sum(1 for s in receiver.spans if s.name.startswith("tools/call")) >= 3 and any(
                    m.name == "mcp.server.operation.duration" for m in receiver.metrics)
            if done:
                break
            anyio.run(anyio.sleep, 0.1)
    finally:
        receiver.stop()

    assert not results["motion"].isError if MCP_MAJOR == 1 else not results["motion"].is_error
    defined = conventions()
    calls = {s.trace_id.hex(): s for s in receiver.spans if s.name == "tools/call move_arm_to_pose"}
    for what, trace in traces.items():
        span = calls.get(trace)
        assert span is not None, f"{what}: no span in trace {trace}: {[s.name for s in receiver.spans]}"
        # The `_meta` traceparent is the span's parent.
        assert span.parent_span_id.hex() == parent, what
        assert span.kind == Span.SpanKind.SPAN_KIND_SERVER, what
        attrs = attributes(span)
        assert attrs["mcp.method.name"] == "tools/call", attrs
        assert attrs["gen_ai.tool.name"] == "move_arm_to_pose", attrs
        assert attrs["gen_ai.operation.name"] == "execute_tool", attrs
        assert attrs["jsonrpc.request.id"], attrs
        assert attrs["network.transport"] == "pipe", attrs
        assert attrs["mcp.protocol.version"] in ("2025-11-25", "2026-07-28"), attrs
        # stdio has no session id: not set.
        assert "mcp.session.id" not in attrs, attrs
        for key in attrs:
            # toolwright's own attributes are in its namespace; every other is the conventions'.
            if not key.startswith("toolwright."):
                assert key in defined, f"`{key}` is not in the conventions"
        assert attrs["toolwright.resource"] == "arm", (what, attrs)
        # The answer's `_meta` carries the span's trace id.
        result = results[what]
        meta = result.meta if MCP_MAJOR == 1 else (result.meta or {})
        assert (meta or {}).get("io.toolwright/traceId") == trace, (what, meta)
        if what == "motion":
            assert "error.type" not in attrs, attrs
        else:
            # An `isError` result: a tool error.
            assert attrs["error.type"] == "tool_error", (what, attrs)
            assert span.status.code == span.status.STATUS_CODE_ERROR, (what, span.status)
    # What the call did, in toolwright's attributes: the motion ran, the refused one never took
    # the arm, the stopped one was halted by its safe stop.
    motion = attributes(calls[traces["motion"]])
    assert motion["toolwright.outcome"] == "ok", motion
    assert motion["toolwright.queue.wait_s"] >= 0, motion
    assert "toolwright.safe_stop.ran" not in motion, motion
    refused = attributes(calls[traces["refused"]])
    assert refused["toolwright.outcome"] in ("invalid_arguments", "outside_envelope"), refused
    assert "toolwright.queue.wait_s" not in refused, refused
    stopped = attributes(calls[traces["stopped"]])
    assert stopped["toolwright.outcome"] == "timeout", stopped
    assert stopped["toolwright.safe_stop.ran"] is True, stopped
    assert "halt" in stopped["toolwright.safe_stop.report"], stopped
    # toolwright's own spans are log lines; the spans a body makes (the robot arm's `travel`,
    # a `tracing` span) are children of the request's span.
    children = [s.name for s in receiver.spans if s.parent_span_id == calls[traces["stopped"]].span_id]
    assert children == ["travel"], children
    assert not [s for s in receiver.spans if s.parent_span_id == calls[traces["refused"]].span_id]

    histograms = [m for m in receiver.metrics if m.name == "mcp.server.operation.duration"]
    assert histograms, [m.name for m in receiver.metrics]
    assert "mcp.server.operation.duration" in defined
    histogram = histograms[-1]
    assert histogram.unit == "s"
    points = histogram.histogram.data_points
    by_tool = [p for p in points if {kv.key: value(kv.value) for kv in p.attributes}.get("gen_ai.tool.name") == "move_arm_to_pose"]
    assert sum(p.count for p in by_tool) >= 3, points
    kinds = {({kv.key: value(kv.value) for kv in p.attributes}).get("error.type") for p in by_tool}
    assert kinds >= {None, "tool_error"}, kinds


def serve_http(receiver: Receiver, *args: str, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """The robot arm over streamable HTTP on a free loopback port, exporting to `receiver`, and
    its MCP endpoint's URL (from the start-up line)."""
    server = subprocess.Popen(
        [str(BIN), "serve", "--http", "127.0.0.1:0", "--confirm=off", "--otlp-endpoint", receiver.url, *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={"RUST_LOG": "warn", **env}, text=True)
    for line in server.stderr:
        m = re.search(r"serving MCP over streamable HTTP at (\S+)", line)
        if m:
            return server, m.group(1)
    server.kill()
    raise AssertionError("no start-up line")


def post(url: str, message: dict[str, Any], headers: dict[str, str]) -> tuple[dict[str, str], str]:
    """One JSON-RPC message POSTed to `url`: the answer's headers and body."""
    request = urllib.request.Request(url, json.dumps(message).encode(), {
        "content-type": "application/json", "accept": "application/json, text/event-stream", **headers})
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(response.headers), response.read().decode()


def result(text: str) -> dict[str, Any]:
    """The `result` of an answer, sent as JSON or as an event stream."""
    if "data:" in text:
        text = next(l[5:] for l in text.splitlines() if l.startswith("data:") and l[5:].strip())
    answer = json.loads(text)
    assert "result" in answer, answer
    return answer["result"]


def session(url: str) -> dict[str, str]:
    """A 2025-11-25 session, initialized: the headers each of its requests carries."""
    headers, _ = post(url, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "otel", "version": "0"}}}, {})
    common = {"mcp-session-id": headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, common)
    return common


def spans_when(receiver: Receiver, done: Callable[[list[Span]], bool]) -> list[Span]:
    """What the receiver has once `done` says so (the batch exporter sends every 5 s)."""
    for _ in range(200):
        with receiver.lock:
            spans = list(receiver.spans)
        if done(spans):
            break
        anyio.run(anyio.sleep, 0.1)
    return spans


def test_over_http_the_span_carries_the_session_the_client_and_a_link() -> None:
    """Streamable HTTP (2025-11-25, a session): `network.transport` is `tcp`, `mcp.session.id`
    is the session's, `client.address` the peer's, and an HTTP `traceparent` header is a link
    while `_meta`'s is the parent."""
    assert BIN.is_file(), f"{BIN} does not exist: cargo build --example robot_arm"
    receiver = Receiver()
    server, url = serve_http(receiver, "--otel-capture-content", env={"ROBOT_ARM_TIME_SCALE": "0"})
    try:
        common = session(url)
        trace, parent = secrets.token_hex(16), secrets.token_hex(8)
        linked_trace, linked_span = secrets.token_hex(16), secrets.token_hex(8)
        _, text = post(url, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "get_arm_state", "arguments": {},
            "_meta": {"traceparent": f"00-{trace}-{parent}-01"}}},
            {**common, "traceparent": f"00-{linked_trace}-{linked_span}-01"})
        assert trace in text, "the answer's _meta carries the trace id"
        # A body over the limit is refused by the guard before MCP reads it: counted, not spanned.
        huge = {"jsonrpc": "2.0", "id": 2, "method": "ping", "params": {"pad": "x" * (2 << 20)}}
        try:
            post(url, huge, common)
            raise AssertionError("a 2 MiB body was accepted")
        except urllib.error.HTTPError as e:
            assert e.code == 413, e.code
        spans = spans_when(receiver, lambda spans: any(s.name == "tools/call get_arm_state" for s in spans))
    finally:
        server.terminate()
        server.wait(30)
        receiver.stop()
    calls = [s for s in spans if s.name == "tools/call get_arm_state"]
    assert calls, [s.name for s in spans]
    span = calls[0]
    assert span.trace_id.hex() == trace and span.parent_span_id.hex() == parent
    attrs = attributes(span)
    assert attrs["network.transport"] == "tcp", attrs
    assert attrs["mcp.session.id"] == common["mcp-session-id"], attrs
    assert attrs["client.address"] == "127.0.0.1", attrs
    assert isinstance(attrs["client.port"], int) and attrs["client.port"] > 0, attrs
    assert attrs["mcp.protocol.version"] == "2025-11-25", attrs
    assert [(l.trace_id.hex(), l.span_id.hex()) for l in span.links] == [(linked_trace, linked_span)]
    # Opted in (--otel-capture-content): the arguments and the result are on the span.
    assert attrs["gen_ai.tool.call.arguments"] == "{}", attrs
    assert "gripper" in attrs["gen_ai.tool.call.result"], attrs
    assert not [s for s in receiver.spans if s.name == "ping"], "the refused body was spanned"
    refused = [m for m in receiver.metrics if m.name == "toolwright.http.refused"]
    assert refused, [m.name for m in receiver.metrics]
    statuses = {value(kv.value) for p in refused[-1].sum.data_points for kv in p.attributes
                if kv.key == "http.response.status_code"}
    assert statuses == {413}, statuses


def stdio_asker(server: subprocess.Popen) -> Callable[[str, dict[str, Any]], dict[str, Any]]:
    """Requests over the server's stdin and stdout, as raw lines, in a 2025-11-25 session
    (initialized here): each answer's `result`, notifications passed over."""
    ids = iter(range(1_000_000))

    def send(message: dict[str, Any]) -> None:
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    def ask(method: str, params: dict[str, Any]) -> dict[str, Any]:
        request_id = next(ids)
        send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        for line in server.stdout:
            answer = json.loads(line)
            if answer.get("id") == request_id:
                assert "result" in answer, answer
                return answer["result"]
        raise AssertionError(f"the server closed stdout before answering {method}")

    ask("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "otel", "version": "0"}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return ask


@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
def test_a_call_run_as_a_task_keeps_its_body_spans_under_its_span(revision: str) -> None:
    """A trajectory run as a task runs on after its request was answered, and the spans its
    body makes then (a `travel` for each waypoint) are still children of the request's span.
    On 2025-11-25 the call is task-augmented (`params.task`, over stdio, where toolwright serves
    that revision's tasks); on 2026-07-28 it is promoted after `promote_after` (250 ms), over
    streamable HTTP (stateless, the tasks extension declared)."""
    assert BIN.is_file(), f"{BIN} does not exist: cargo build --example robot_arm"
    receiver = Receiver()
    # Real time: three 200 mm segments at 500 mm/s, 0.4 s each.
    env = {"ROBOT_ARM_TIME_SCALE": "1"}
    trace, parent = secrets.token_hex(16), secrets.token_hex(8)
    waypoints = [{"x": 500, "y": 0, "z": 400}, {"x": 500, "y": 200, "z": 400}, {"x": 300, "y": 200, "z": 400}]
    call = {"name": "follow_trajectory", "arguments": {"waypoints": waypoints, "speed": 1.0},
            "_meta": {"traceparent": f"00-{trace}-{parent}-01"}}
    if revision == "2025-11-25":
        server = subprocess.Popen(
            [str(BIN), "serve", "--confirm=off", "--otlp-endpoint", receiver.url],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={"RUST_LOG": "warn", **env}, text=True)
        ask = stdio_asker(server)
    else:
        server, url = serve_http(receiver, env=env)
        ask = lambda method, params: post_2026(url, method, params, params.get("taskId", call["name"]))  # noqa: E731
    try:
        if revision == "2025-11-25":
            task_id = ask("tools/call", {**call, "task": {"ttl": 60000}})["task"]["taskId"]
        else:
            created = ask("tools/call", call)
            assert created["resultType"] == "task", created
            task_id = created["taskId"]
        deadline = time.time() + 30
        while (seen := ask("tasks/get", {"taskId": task_id}))["status"] == "working":
            assert time.time() < deadline, seen
            time.sleep(0.1)
        assert seen["status"] == "completed", seen
        done = ask("tasks/result", {"taskId": task_id}) if revision == "2025-11-25" else seen["result"]
        assert done["structuredContent"]["reached_waypoints"] == 3, done
        if revision == "2025-11-25":
            # The server flushes its exporters when stdin closes.
            server.stdin.close()
        spans = spans_when(receiver, lambda spans: sum(s.name == "travel" for s in spans) >= 3)
    finally:
        server.terminate()
        server.wait(30)
        receiver.stop()
    calls = [s for s in spans if s.name == "tools/call follow_trajectory"]
    assert len(calls) == 1, [s.name for s in spans]
    span = calls[0]
    assert span.trace_id.hex() == trace and span.parent_span_id.hex() == parent
    assert attributes(span)["mcp.protocol.version"] == revision, attributes(span)
    travels = [s for s in spans if s.name == "travel"]
    assert [(s.trace_id.hex(), s.parent_span_id) for s in travels] == [(trace, span.span_id)] * 3, travels
    # The request was answered (the task made) before the later segments began.
    assert max(s.start_time_unix_nano for s in travels) > span.end_time_unix_nano, (travels, span)
