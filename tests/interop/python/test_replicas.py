"""Several replicas of a toolwright server behind a real load balancer, sharing sessions and rate
limits through a real Redis, driven by the official Python MCP SDK (1.x and 2.x lines).

The stack, started by the tests on free loopback ports: redis-server, three replicas of the
parts_catalog example (`serve --http 127.0.0.1:P --redis redis://127.0.0.1:R/0`, next to
robot_arm in the examples directory) and HAProxy in front of them (round-robin, no stickiness,
retries of failed connections on another replica). `.ci/run` installs redis-server and haproxy
from Debian's packages when they are missing.

Checked: 10,000 calls from 50 clients (the 1.x line with sessions; the 2.x line on 2026-07-28,
stateless, and with sessions) all answered, each with its own result; a session's calls land on
every replica; a daily quota of 20 quotes per client holds across the replicas (the 21st is
refused wherever it lands); killing one replica mid-run loses no call (the load balancer retries
the connections it refused; a call that was running on it fails when its client resumes its
stream on another replica, and is made again by its client, once);
with OAuth (a real authorization server, tests/interop/oauth/), a session's owner travels with it
in Redis: another principal gets 404 on every replica, the owner is served on each; a motion's
progress notifications pass HAProxy as they are sent (`option http-no-delay`: without it HAProxy
holds an event stream's events back to send them in batches, up to 200 ms late).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from test_robot_arm import BIN, MCP_MAJOR, MODES, attr

CATALOG = Path(os.environ.get("PARTS_CATALOG_BIN", Path(BIN).parent / "parts_catalog"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "oauth"))
from oauth_server import OAuthServer, node_available  # noqa: E402
REPLICAS = 3

if MCP_MAJOR == 1:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client
else:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

pytestmark = pytest.mark.skipif(
    not (shutil.which("redis-server") and shutil.which("haproxy")),
    reason="redis-server and haproxy are needed (.ci/run installs them)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        assert proc.poll() is None, f"{what} exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{what} did not listen on {port}")


HAPROXY_CFG = """\
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response
    option http-no-delay
frontend mcp
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
{servers}
"""


class Stack:
    """redis-server, the replicas, and HAProxy in front of them."""

    def __init__(self):
        assert CATALOG.is_file(), f"{CATALOG} does not exist: cargo build --example parts_catalog"
        self.dir = tempfile.mkdtemp(prefix="replicas-")
        self.redis_port = free_port()
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.redis_port, self.redis, "redis-server")
        self.ports = [free_port() for _ in range(REPLICAS)]
        self.replicas = [self.start_replica(i) for i in range(REPLICAS)]
        self.lb_port = free_port()
        cfg = Path(self.dir) / "haproxy.cfg"
        cfg.write_text(HAPROXY_CFG.format(port=self.lb_port, servers="\n".join(
            f"    server r{i} 127.0.0.1:{p} check inter 300ms fall 1 rise 2"
            for i, p in enumerate(self.ports))))
        self.haproxy = subprocess.Popen(["haproxy", "-db", "-f", str(cfg)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.lb_port, self.haproxy, "haproxy")
        self.url = f"http://127.0.0.1:{self.lb_port}/mcp"

    def start_replica(self, i: int) -> subprocess.Popen:
        log = open(Path(self.dir) / f"replica-{i}.log", "w")
        proc = subprocess.Popen(
            [str(CATALOG), "serve", "--http", f"127.0.0.1:{self.ports[i]}",
             "--redis", f"redis://127.0.0.1:{self.redis_port}/0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
            env={**os.environ, "RUST_LOG": "info"})
        wait_for_port(self.ports[i], proc, f"replica {i}")
        return proc

    def replica_log(self, i: int) -> str:
        return (Path(self.dir) / f"replica-{i}.log").read_text(errors="replace")

    def kill(self, i: int) -> None:
        self.replicas[i].send_signal(signal.SIGKILL)
        self.replicas[i].wait()

    def flush(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "FLUSHALL"], check=True,
                       stdout=subprocess.DEVNULL)

    def stop(self) -> None:
        for p in [self.haproxy, *self.replicas, self.redis]:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def stack():
    s = Stack()
    yield s
    s.stop()


@asynccontextmanager
async def sdk(url: str, mode: str):
    if MCP_MAJOR == 1:
        async with streamablehttp_client(url) as (read, write, _):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s
    else:
        async with httpx2.AsyncClient(timeout=60) as http:
            async with Client(streamable_http_client(url, http_client=http), mode=mode) as c:
                yield c


class Run:
    """What a group of clients did."""

    def __init__(self):
        self.answers: dict[tuple[int, int], float] = {}
        self.latencies: list[float] = []
        self.reconnects = 0
        self.errors: list[str] = []


async def client(url: str, mode: str, k: int, calls: int, run: Run) -> None:
    """Calls convert_units `calls` times with values only this client sends; a call that fails
    (its replica died under it) is made again in a new session, once per failure."""
    i = 0
    while i < calls:
        try:
            async with sdk(url, mode) as c:
                while i < calls:
                    value = k * 100_000 + i
                    started = time.perf_counter()
                    r = await c.call_tool("convert_units", {"value": value, "from": "in", "to": "mm"})
                    run.latencies.append(time.perf_counter() - started)
                    if attr(r, "isError", "is_error"):
                        run.errors.append(str(r.content))
                    else:
                        run.answers[(k, i)] = attr(r, "structuredContent", "structured_content")["value"]
                    i += 1
        except BaseException as e:  # noqa: BLE001 - the SDK raises groups from its transport
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            run.reconnects += 1
            if run.reconnects > 200:
                raise


def check(run: Run, clients: int, calls: int) -> None:
    assert not run.errors, run.errors[:5]
    assert len(run.answers) == clients * calls, f"{clients * calls - len(run.answers)} calls lost"
    for (k, i), value in run.answers.items():
        assert abs(value - (k * 100_000 + i) * 25.4) < 1e-6, (k, i, value)


def report(label: str, run: Run, seconds: float) -> None:
    lat = sorted(run.latencies)
    p99 = lat[int(len(lat) * 0.99) - 1]
    print(f"{label}: {len(run.answers)} calls in {seconds:.1f} s ({len(run.answers) / seconds:.0f} calls/s), "
          f"p50 {statistics.median(lat) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, {run.reconnects} reconnects")


# The 2.x line: on 2026-07-28 (auto, stateless) with the full load; with sessions (legacy) lighter.
CALLS = {"initialize": 200, "auto": 200, "legacy": 40}


@pytest.mark.parametrize("mode", MODES)
def test_fifty_clients_ten_thousand_calls_none_lost(stack: Stack, mode: str) -> None:
    clients, calls = 50, CALLS[mode]
    run = Run()

    async def main():
        await asyncio.gather(*(client(stack.url, mode, k, calls, run) for k in range(clients)))

    started = time.perf_counter()
    asyncio.run(asyncio.wait_for(main(), 600))
    report(f"replicas ({mode})", run, time.perf_counter() - started)
    check(run, clients, calls)
    assert run.reconnects == 0
    sessions = [stack.replica_log(i).count("create new session") for i in range(REPLICAS)]
    if mode != "auto":
        # Each session was created once and restored on the replicas it hopped to.
        assert all(n > 0 for n in sessions), sessions


@pytest.mark.parametrize("mode", [m for m in MODES if m != "auto"])
def test_a_session_hops_between_replicas(stack: Stack, mode: str) -> None:
    async def main():
        async with sdk(stack.url, mode) as c:
            for i in range(12):
                r = await c.call_tool("convert_units", {"value": i, "from": "N", "to": "lbf"})
                assert not attr(r, "isError", "is_error"), r

    asyncio.run(asyncio.wait_for(main(), 60))
    logs = [stack.replica_log(i) for i in range(REPLICAS)]
    ids = {line.split('session_id="')[1].split('"')[0]
           for log in logs for line in log.splitlines() if 'create new session session_id="' in line}
    assert len(ids) == 1, ids
    (sid,) = ids
    on = [i for i, log in enumerate(logs) if sid in log]
    assert len(on) == REPLICAS, f"the session was served by replicas {on} only"


@pytest.mark.parametrize("mode", MODES)
def test_a_daily_quota_holds_across_replicas(stack: Stack, mode: str) -> None:
    stack.flush()

    async def main():
        results = []
        async with sdk(stack.url, mode) as c:
            for _ in range(25):
                r = await c.call_tool("request_quote", {"number": "FT-300", "quantity": 2})
                results.append((attr(r, "isError", "is_error"), r.content[0].text))
        return results

    results = asyncio.run(asyncio.wait_for(main(), 60))
    assert [e for e, _ in results] == [False] * 20 + [True] * 5, results
    for _, text in results[20:]:
        assert text.startswith("Tool `request_quote` was not run: the limit of `request_quote` for each "
                               "client is 20 calls per day and has been reached. Call it again in "), text


@pytest.mark.parametrize("mode", MODES)
def test_killing_a_replica_mid_run_loses_no_call(stack: Stack, mode: str) -> None:
    clients, calls = 20, 60
    run = Run()

    async def main():
        load = asyncio.gather(*(client(stack.url, mode, k, calls, run) for k in range(clients)))
        await asyncio.sleep(1.0)
        assert len(run.answers) < clients * calls, "the run ended before the kill"
        stack.kill(1)
        await load

    started = time.perf_counter()
    # About 10 s. A client left waiting for an answer that is lost (its call's stream resumed on
    # another replica, and nothing failed the call) fails the test here, not CI's timeout.
    asyncio.run(asyncio.wait_for(main(), 120))
    report(f"replicas, one killed ({mode})", run, time.perf_counter() - started)
    check(run, clients, calls)
    # At most the calls that were running on the killed replica were made again: one per client.
    assert run.reconnects <= clients, run.reconnects


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None):
    """(status, headers with lower-case names, body text) of one request, errors included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            headers = {k.lower(): v for k, v in r.headers.items()}
            # An event stream that stays open (GET): the status and headers are the answer.
            text = "" if headers.get("content-type", "").startswith("text/event-stream") and method == "GET" \
                else r.read().decode()
            return r.status, headers, text
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode()


@pytest.mark.skipif(not node_available(), reason="node 20+ and npm are needed for the authorization server")
def test_a_sessions_owner_travels_with_it_between_replicas(stack: Stack) -> None:
    """Two replicas serving with OAuth and the stack's Redis: a session created on one by the
    operator's token is refused (404, as a session that does not exist) to the viewer's token
    (another subject) on both, for a call, the event stream, a resumption and a DELETE, and
    served to the operator on the other replica (restored from Redis with its owner)."""
    ports = [free_port(), free_port()]
    resource = f"http://127.0.0.1:{ports[0]}/mcp"
    with OAuthServer(resource, ttl=300) as auth:
        procs = []
        try:
            for i, port in enumerate(ports):
                log = open(Path(stack.dir) / f"oauth-replica-{i}.log", "w")
                procs.append(subprocess.Popen(
                    [str(CATALOG), "serve", "--http", f"127.0.0.1:{port}",
                     "--redis", f"redis://127.0.0.1:{stack.redis_port}/0",
                     "--oauth-issuer", auth.issuer, "--oauth-resource", resource],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                    env={**os.environ, "RUST_LOG": "info"}))
                wait_for_port(port, procs[-1], f"OAuth replica {i}")
            one, two = (f"http://127.0.0.1:{p}/mcp" for p in ports)
            owner = {"authorization": "Bearer " + auth.get_token("arm-operator", scope="arm:read", resource=resource)}
            other = {"authorization": "Bearer " + auth.get_token("arm-viewer", scope="arm:read", resource=resource)}
            initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                     "clientInfo": {"name": "raw", "version": "0"}}}
            status, headers, text = http("POST", one, initialize, owner)
            assert status == 200, (status, text)
            sid = {"mcp-session-id": headers["mcp-session-id"]}
            status, _, text = http("POST", one, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                                   {**owner, **sid})
            assert status == 202, (status, text)
            call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "convert_units", "arguments": {"value": 1, "from": "in", "to": "mm"}}}
            for url in (two, one):
                for method, body, extra in [("POST", call, {}), ("GET", None, {}),
                                            ("GET", None, {"last-event-id": "0"}), ("DELETE", None, {})]:
                    status, _, text = http(method, url, body, {**other, **sid, **extra})
                    assert (status, text) == (404, "Not Found: Session not found"), (url, method, extra, status, text)
            status, _, text = http("POST", two, call, {**owner, **sid})
            assert status == 200 and '"isError":false' in text, (status, text)
            status, _, text = http("POST", two, call, {**other, **sid})
            assert status == 404, (status, text)
            status, _, text = http("DELETE", two, None, {**owner, **sid})
            assert status == 204, (status, text)
        finally:
            for p in procs:
                p.terminate()
                p.wait(10)


@pytest.mark.parametrize("mode", MODES)
def test_progress_passes_the_load_balancer_as_it_is_sent(mode: str) -> None:
    """robot_arm behind HAProxy with the configuration above: `follow_trajectory` moves through 12
    waypoints about 100 ms apart and notifies each. HAProxy's default holds an event stream's
    small writes back (measured: 12 events in 5 or 6 deliveries, up to 200 ms late);
    `option http-no-delay` passes each on as it comes. Counted by deliveries (events arriving
    together), not by a time bound."""
    work = tempfile.mkdtemp(prefix="progress-lb-")
    arm_port, lb_port = free_port(), free_port()
    # A simulation: no one confirms the motion (tests/interop/python/test_safe_actuation.py does).
    arm = subprocess.Popen([str(BIN), "serve", "--http", f"127.0.0.1:{arm_port}", "--confirm=off"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    cfg = Path(work) / "haproxy.cfg"
    cfg.write_text(HAPROXY_CFG.format(port=lb_port, servers=f"    server r0 127.0.0.1:{arm_port}"))
    lb = subprocess.Popen(["haproxy", "-db", "-f", str(cfg)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(arm_port, arm, "robot_arm")
        wait_for_port(lb_port, lb, "haproxy")
        arrivals: list[float] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            arrivals.append(time.monotonic())

        async def go() -> Any:
            async with sdk(f"http://127.0.0.1:{lb_port}/mcp", mode) as s:
                if MCP_MAJOR > 1:
                    # Both revisions: `auto` stays on 2026-07-28 (rmcp answers server/discover).
                    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
                    modern = s.protocol_version in MODERN_PROTOCOL_VERSIONS
                    assert modern == (mode == "auto"), (mode, s.protocol_version)
                waypoints = [{"x": 300, "y": 0, "z": 200 + 50 * (i % 2)} for i in range(12)]
                return await s.call_tool("follow_trajectory",
                                         {"waypoints": waypoints, "speed": 1.0},
                                         progress_callback=progress)

        result = asyncio.run(go())
        assert not attr(result, "isError", "is_error"), result
        assert len(arrivals) == 12, arrivals
        # Events that arrive within 30 ms of the one before came in the same delivery.
        deliveries = 1 + sum(1 for a, b in zip(arrivals, arrivals[1:]) if b - a > 0.03)
        gaps = [round((b - a) * 1000) for a, b in zip(arrivals, arrivals[1:])]
        assert deliveries >= 10, f"12 progress events came in {deliveries} deliveries: gaps {gaps} ms"
    finally:
        for p in (lb, arm):
            p.terminate()
            p.wait(10)
        shutil.rmtree(work, ignore_errors=True)
