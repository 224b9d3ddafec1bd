"""The robot_arm example served over streamable HTTP as an OAuth 2.1 resource server, against a
real authorization server (oidc-provider, tests/interop/oauth/), driven by the official Python
MCP SDK (1.x and 2.x lines).

The authorization server issues RS256 JWT access tokens for the resource
http://127.0.0.1:PORT/mcp (RFC 8707); robot_arm is started with
`serve --http 127.0.0.1:PORT --oauth-issuer ISSUER --oauth-resource http://127.0.0.1:PORT/mcp`.
Checked: the Protected Resource Metadata and the 401 challenge; the SDK calls tools with an
operator token; expired, wrong-audience, wrong-issuer, unsigned, tampered and unknown-key tokens
get 401; a viewer token (arm:read only) gets 403 insufficient_scope on move_arm_to_pose and
reads the arm's state; a rotated signing key is picked up; and the SDK's own OAuth client flow
(discovery, dynamic registration, authorization code + PKCE) run headless.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
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

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "interop" / "oauth"))
from oauth_server import OAuthServer, authorization_response, decode_jwt, node_available  # noqa: E402

if MCP_MAJOR == 1:
    import httpx
    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    AuthorizationCodeResult = None
else:
    import httpx2 as httpx
    from mcp import Client
    from mcp.client.auth import AuthorizationCodeResult
    from mcp.client.streamable_http import streamable_http_client

from mcp.client.auth import OAuthClientProvider  # noqa: E402
from mcp.shared.auth import OAuthClientMetadata  # noqa: E402

pytestmark = pytest.mark.skipif(not node_available(), reason="node 20+ and npm are needed for the authorization server")

OTHER_RESOURCE = "http://127.0.0.1:1/other"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    """The authorization server and robot_arm serving HTTP with OAuth."""

    def __init__(self, confirm: str = "off"):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.resource = f"{self.base}/mcp"
        self.auth = OAuthServer([self.resource, OTHER_RESOURCE], ttl=300).start()
        self.log = tempfile.NamedTemporaryFile("w+", prefix="robot-arm-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [str(BIN), "serve", "--http", f"127.0.0.1:{self.port}", "--oauth-issuer", self.auth.issuer,
             "--oauth-resource", self.resource, f"--confirm={confirm}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log,
            env={**os.environ, "ROBOT_ARM_TIME_SCALE": "0", "RUST_LOG": "info"})
        deadline = time.time() + 30
        while "serving MCP over streamable HTTP" not in self.server_log():
            assert self.proc.poll() is None, f"robot_arm exited:\n{self.server_log()}"
            assert time.time() < deadline, f"robot_arm did not start:\n{self.server_log()}"
            time.sleep(0.05)

    def server_log(self) -> str:
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.auth.stop()
        os.unlink(self.log.name)

    def token(self, client: str = "arm-operator", scope: str = "arm:move arm:read") -> str:
        return self.auth.get_token(client, scope=scope, resource=self.resource)


@pytest.fixture(scope="module")
def stack():
    s = Stack()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def confirming_stack():
    """The same, with confirmation on (each motion asks its user first)."""
    s = Stack(confirm="on")
    yield s
    s.stop()


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None):
    """(status, headers, body text) of one request, errors included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "raw", "version": "0"}}}


def session(stack: Stack, token: str) -> dict[str, str]:
    """A raw session with this token: the headers to send with its requests."""
    status, headers, text = http("POST", stack.resource, INITIALIZE, {"authorization": f"Bearer {token}"})
    assert status == 200, (status, text)
    sid = {k.lower(): v for k, v in headers.items()}["mcp-session-id"]
    h = {"authorization": f"Bearer {token}", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"}
    status, _, text = http("POST", stack.resource, {"jsonrpc": "2.0", "method": "notifications/initialized"}, h)
    assert status == 202, (status, text)
    return h


def call(name: str, arguments: dict | None = None, id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments or {}}}


def sse_result(text: str) -> dict:
    """The JSON-RPC message in an SSE response body."""
    for line in text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            return json.loads(line[5:])
    return json.loads(text)


def challenge(headers: dict[str, str]) -> str:
    return {k.lower(): v for k, v in headers.items()}.get("www-authenticate", "")


@asynccontextmanager
async def sdk(url: str, mode: str, *, token: str | None = None, auth: Any = None):
    """The SDK's client over streamable HTTP, with a bearer token or an httpx auth provider."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    if MCP_MAJOR == 1:
        async with streamablehttp_client(url, headers=headers, auth=auth) as (read, write, _):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s
    else:
        async with httpx.AsyncClient(headers=headers, auth=auth, timeout=30) as http_client:
            async with Client(streamable_http_client(url, http_client=http_client), mode=mode) as c:
                yield c


def run(coro) -> None:
    asyncio.run(asyncio.wait_for(coro, 60))


# ------------------------------------------------------------------------------------------------


def test_protected_resource_metadata_and_the_challenge(stack: Stack) -> None:
    status, _, text = http("GET", f"{stack.base}/.well-known/oauth-protected-resource/mcp")
    assert status == 200, text
    assert json.loads(text) == {
        "resource": stack.resource,
        "authorization_servers": [stack.auth.issuer],
        "scopes_supported": ["arm:move", "arm:read"],
        "bearer_methods_supported": ["header"],
    }
    # Served at both paths, to GET and HEAD only (the endpoint routes them by hand).
    for path in ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]:
        status, _, text = http("GET", f"{stack.base}{path}")
        assert status == 200 and json.loads(text)["resource"] == stack.resource, (path, text)
        status, _, text = http("HEAD", f"{stack.base}{path}")
        assert (status, text) == (200, ""), path
        status, headers, _ = http("POST", f"{stack.base}{path}", {})
        assert status == 405, path
        assert {k.lower(): v for k, v in headers.items()}["allow"] == "GET,HEAD", path
    status, headers, _ = http("POST", stack.resource, INITIALIZE)
    assert status == 401
    assert challenge(headers) == (
        f'Bearer resource_metadata="{stack.base}/.well-known/oauth-protected-resource/mcp"')


@pytest.mark.parametrize("mode", MODES)
def test_the_sdk_calls_tools_with_an_operator_token(stack: Stack, mode: str) -> None:
    async def body():
        async with sdk(stack.resource, mode, token=stack.token()) as client:
            tools = (await client.list_tools()).tools
            assert "move_arm_to_pose" in [t.name for t in tools]
            r = await client.call_tool("move_arm_to_pose", {"x": 400, "y": 0, "z": 300})
            assert not attr(r, "isError", "is_error"), r
            r = await client.call_tool("get_arm_state", {})
            assert attr(r, "structuredContent", "structured_content")["position"] == {"x": 400.0, "y": 0.0, "z": 300.0}
            # Back home for the other tests.
            await client.call_tool("move_arm_to_pose", {"x": 300, "y": 0, "z": 400})

    run(body())


def tampered(token: str) -> str:
    head, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["scope"] = "arm:move arm:read arm:admin"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{head}.{forged}.{signature}"


def test_invalid_tokens_get_401(stack: Stack) -> None:
    now = int(time.time())
    cases = {
        "expired": stack.auth.mint({"aud": stack.resource, "iat": now - 7200, "exp": now - 3600}),
        "wrong audience": stack.auth.get_token("arm-operator", scope="arm:move arm:read", resource=OTHER_RESOURCE),
        "wrong issuer": stack.auth.mint({"aud": stack.resource, "iss": "http://127.0.0.1:1"}),
        "unsigned": stack.auth.mint({"aud": stack.resource}, header={"alg": "none"}),
        "tampered": tampered(stack.token()),
        "unknown key": stack.auth.mint({"aud": stack.resource}, key="unpublished"),
        "not a JWT": "not-a-jwt",
    }
    assert decode_jwt(cases["wrong audience"])[1]["aud"] == OTHER_RESOURCE
    for name, token in cases.items():
        status, headers, text = http("POST", stack.resource, INITIALIZE, {"authorization": f"Bearer {token}"})
        assert status == 401, (name, status, text)
        c = challenge(headers)
        assert 'error="invalid_token"' in c and "resource_metadata=" in c, (name, c)
    # The same mint, valid, passes: the cases fail for the reason named.
    good = stack.auth.mint({"aud": stack.resource})
    assert http("POST", stack.resource, INITIALIZE, {"authorization": f"Bearer {good}"})[0] == 200


def test_a_viewer_token_gets_403_on_motion_and_reads_the_state(stack: Stack) -> None:
    h = session(stack, stack.token("arm-viewer", "arm:read"))
    status, headers, text = http("POST", stack.resource, call("move_arm_to_pose", {"x": 400, "y": 0, "z": 300}), h)
    assert status == 403, (status, text)
    c = challenge(headers)
    assert c.startswith('Bearer error="insufficient_scope", scope="arm:move", resource_metadata="'), c
    assert "needs scope `arm:move`" in text, text
    status, _, text = http("POST", stack.resource, call("get_arm_state", id=2), h)
    assert status == 200, text
    result = sse_result(text)["result"]
    assert result["isError"] is False and result["structuredContent"]["moving"] is False


@pytest.mark.parametrize("mode", MODES)
def test_the_sdk_with_a_viewer_token_reads_but_cannot_move(stack: Stack, mode: str) -> None:
    async def body():
        token = stack.token("arm-viewer", "arm:read")
        async with sdk(stack.resource, mode, token=token) as client:
            r = await client.call_tool("get_arm_state", {})
            assert not attr(r, "isError", "is_error"), r
        # The 403 surfaces from the SDK's transport: 1.x as an HTTP status error, 2.x as an
        # MCPError; the server logged why, and the arm did not move.
        refusals = stack.server_log().count("call refused: insufficient scope")
        with pytest.raises(BaseException):
            async with sdk(stack.resource, mode, token=token) as client:
                await client.call_tool("move_arm_to_pose", {"x": 400, "y": 0, "z": 300})
        assert stack.server_log().count("call refused: insufficient scope") == refusals + 1
        async with sdk(stack.resource, mode, token=token) as client:
            r = await client.call_tool("get_arm_state", {})
            assert attr(r, "structuredContent", "structured_content")["position"] == {"x": 300.0, "y": 0.0, "z": 400.0}

    run(body())


def test_a_rotated_signing_key_is_picked_up(stack: Stack) -> None:
    before = stack.token()
    assert http("POST", stack.resource, INITIALIZE, {"authorization": f"Bearer {before}"})[0] == 200
    kid = stack.auth.rotate_key()
    after = stack.token()
    assert decode_jwt(after)[0]["kid"] == kid != decode_jwt(before)[0]["kid"]
    status, _, text = http("POST", stack.resource, INITIALIZE, {"authorization": f"Bearer {after}"})
    assert status == 200, text
    assert "fetched the OAuth issuer's keys" in stack.server_log()


class MemoryStorage:
    def __init__(self):
        self.tokens = self.client = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client):
        self.client = client


@pytest.mark.parametrize("mode", MODES)
def test_the_sdks_own_oauth_flow_runs_headless(stack: Stack, mode: str) -> None:
    """Discovery from our 401 and metadata, dynamic registration, authorization code + PKCE with
    the resource indicator; the "browser" follows the redirects in a thread."""
    pending: dict[str, Any] = {}

    async def redirect_handler(url: str) -> None:
        params = await asyncio.to_thread(authorization_response, url)
        pending["result"] = (AuthorizationCodeResult(**params) if AuthorizationCodeResult
                             else (params["code"], params.get("state")))

    async def callback_handler():
        return pending.pop("result")

    async def body():
        provider = OAuthClientProvider(
            server_url=stack.resource,
            client_metadata=OAuthClientMetadata(
                client_name="toolwright-interop", redirect_uris=["http://127.0.0.1:1/callback"],
                grant_types=["authorization_code", "refresh_token"], response_types=["code"]),
            storage=MemoryStorage(), redirect_handler=redirect_handler, callback_handler=callback_handler)
        async with sdk(stack.resource, mode, auth=provider) as client:
            r = await client.call_tool("get_arm_state", {})
            assert not attr(r, "isError", "is_error"), r
            r = await client.call_tool("stop_arm", {})
            assert not attr(r, "isError", "is_error"), r
        token = provider.context.current_tokens.access_token
        claims = decode_jwt(token)[1]
        assert claims["aud"] == stack.resource and claims["sub"] == "test-user", claims
        assert {"arm:move", "arm:read"} <= set(claims["scope"].split()), claims

    run(body())


# ------------------------------------------------------------------------------------------------
# Issue 42: an approval is only ever the answer to a question this server asked.

META_2026 = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
             "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}


def post_2026(stack: Stack, token: str, name: str, params: dict[str, Any]) -> dict[str, Any]:
    """One stateless protocol 2026-07-28 `tools/call` with a bearer token: its JSON-RPC answer."""
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": name, "_meta": META_2026, **params}}
    status, _, text = http("POST", stack.resource, body, {
        "authorization": f"Bearer {token}", "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call", "mcp-name": name})
    assert status == 200, (status, text)
    return sse_result(text)


def test_an_answer_to_no_question_approves_nothing_over_http_with_oauth(confirming_stack: Stack) -> None:
    stack = confirming_stack
    token = stack.token()
    before = post_2026(stack, token, "get_arm_state", {"arguments": {}})["result"]["structuredContent"]
    accept = {"confirm": {"action": "accept"}}
    for arguments in [{"x": 350, "y": 200, "z": 300}, {"x": 350, "y": 200, "z": 300}, {"x": 300, "y": -200, "z": 250}]:
        answer = post_2026(stack, token, "move_arm_to_pose", {"arguments": arguments, "inputResponses": accept})
        result = answer["result"]
        # The user is asked: the round's question, and a state to answer it with.
        assert result.get("resultType") == "input_required", answer
        assert "confirm" in result["inputRequests"], result
        assert result["inputRequests"]["confirm"]["params"]["message"].startswith("Move the arm to ("), result
        assert result["requestState"], result
    # A grasp and a release too, as a task-capable call.
    answer = post_2026(stack, token, "grasp_object_force_control",
                       {"arguments": {"target_position": {"x": 400, "y": 0, "z": 25}}, "inputResponses": accept})
    assert answer["result"].get("resultType") == "input_required", answer
    after = post_2026(stack, token, "get_arm_state", {"arguments": {}})["result"]["structuredContent"]
    assert after == before, "nothing moved"
    log = stack.server_log()
    assert "inputResponses ignored" in log, log[-2000:]
    # Answered as asked, the approval runs the motion it was given for.
    first = post_2026(stack, token, "move_arm_to_pose", {"arguments": {"x": 350, "y": 200, "z": 300}})["result"]
    done = post_2026(stack, token, "move_arm_to_pose", {
        "arguments": {"x": 350, "y": 200, "z": 300}, "inputResponses": accept,
        "requestState": first["requestState"]})["result"]
    assert done.get("isError") is False, done
    moved = post_2026(stack, token, "get_arm_state", {"arguments": {}})["result"]["structuredContent"]
    assert moved["position"] == {"x": 350.0, "y": 200.0, "z": 300.0}
