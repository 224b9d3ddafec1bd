"""Start and drive the test OAuth 2.1 authorization server (server.mjs) from Python tests.

Standard library only, so that pytest can import it from any venv::

    import sys; sys.path.insert(0, "tests/interop/oauth")
    from oauth_server import OAuthServer, decode_jwt

    with OAuthServer(resource="http://127.0.0.1:8080/mcp", ttl=300) as auth:
        token = auth.get_token("arm-operator", "arm-operator-secret", scope="arm:move arm:read")
        kid = auth.rotate_key()

`python3 oauth_server.py` runs a self-check against a real server (see README.md).
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import http.cookiejar
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RESOURCE = "http://127.0.0.1:8080/mcp"

# The static clients of clients.json: client_id -> (secret, allowed scopes).
CLIENTS = {
    "arm-operator": ("arm-operator-secret", "arm:move arm:read"),
    "arm-viewer": ("arm-viewer-secret", "arm:read"),
}

_USE_DEFAULT = object()


class OAuthError(Exception):
    """A token or admin request answered with an error (status and the JSON body)."""

    def __init__(self, status: int, body: dict):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body
        self.error = body.get("error") if isinstance(body, dict) else None


def node_available() -> bool:
    """node (20+) and npm are on PATH: tests should skip without them."""
    if not shutil.which("node") or not shutil.which("npm"):
        return False
    out = subprocess.run(["node", "-p", "process.versions.node.split('.')[0]"],
                         capture_output=True, text=True, check=False)
    return out.returncode == 0 and int(out.stdout.strip() or 0) >= 20


def ensure_node_modules() -> None:
    """`npm ci` in this directory unless node_modules matches node's version and the lock file.

    Same stamp as .ci/run uses for tests/interop/node; a file lock makes concurrent callers
    (start.sh takes the same lock) wait instead of racing.
    """
    lock = os.path.join(HERE, "package-lock.json")
    with open(lock, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True,
                                  check=True).stdout.strip()
    stamp = f"{node_version} {digest}"
    stamp_file = os.path.join(HERE, "node_modules", ".toolwright-stamp")
    with open(os.path.join(HERE, ".npm-ci.lock"), "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            with open(stamp_file) as f:
                if f.read().strip() == stamp:
                    return
        except OSError:
            pass
        subprocess.run(["npm", "ci", "--prefix", HERE, "--no-audit", "--no-fund",
                        "--loglevel=error"], stdin=subprocess.DEVNULL, stdout=sys.stderr,
                       check=True)
        with open(stamp_file, "w") as f:
            f.write(stamp + "\n")


def _b64url_json(part: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def decode_jwt(token: str) -> tuple[dict, dict]:
    """(header, claims) of a JWS compact token, without verifying anything."""
    header, payload, _sig = token.split(".")
    return _b64url_json(header), _b64url_json(payload)


_SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def verify_rs256(token: str, jwks: dict) -> dict:
    """Check an RS256 JWS against a JWKS (the key named by its kid) and return its claims.

    Signature only (RSASSA-PKCS1-v1_5 with SHA-256, in pure Python): no exp/aud/iss checks.
    Raises ValueError when the kid is unknown or the signature is wrong.
    """
    header, claims = decode_jwt(token)
    if header.get("alg") != "RS256":
        raise ValueError(f"alg {header.get('alg')!r} is not RS256")
    keys = [k for k in jwks.get("keys", []) if k.get("kid") == header.get("kid")]
    if not keys:
        raise ValueError(f"kid {header.get('kid')!r} is not in the JWKS")

    def num(b64: str) -> int:
        return int.from_bytes(base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)), "big")

    n, e = num(keys[0]["n"]), num(keys[0]["e"])
    signing_input, sig = token.rsplit(".", 1)
    size = (n.bit_length() + 7) // 8
    em = pow(num(sig), e, n).to_bytes(size, "big")
    suffix = _SHA256_DIGEST_INFO + hashlib.sha256(signing_input.encode()).digest()
    expected = b"\x00\x01" + b"\xff" * (size - len(suffix) - 3) + b"\x00" + suffix
    if em != expected:
        raise ValueError("bad signature")
    return claims


def _request(url: str, data: dict | bytes | None = None, headers: dict | None = None,
             method: str | None = None, timeout: float = 30) -> tuple[int, dict]:
    body = None
    headers = dict(headers or {})
    if isinstance(data, dict):
        body = urllib.parse.urlencode(data).encode()
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    elif data is not None:
        body = data
    req = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw) if raw else {}
    except ValueError:
        return status, {"error": "non_json_response", "body": raw.decode(errors="replace")}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def authorization_response(authorization_url: str, redirect_uri: str | None = None,
                           max_hops: int = 12, timeout: float = 30) -> dict[str, str]:
    """Play the browser for an authorization request: follow the server's redirects (with a
    cookie jar) through the auto-login and auto-consent interaction until it redirects to the
    client's redirect_uri, and return that redirect's query parameters (code, state and the
    RFC 9207 iss) without requesting it.

    redirect_uri defaults to the one in the authorization URL. Raises OAuthError if the server
    redirects back with an error (or answers anything but a redirect).
    """
    if redirect_uri is None:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(authorization_url).query)
        redirect_uri = query["redirect_uri"][0]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    url = authorization_url
    for _ in range(max_hops):
        if url.startswith(redirect_uri):
            params = {k: v[0] for k, v in
                      urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).items()}
            if "error" in params:
                raise OAuthError(400, params)
            return params
        try:
            with opener.open(url, timeout=timeout) as resp:
                raise OAuthError(resp.status, {"error": "no_redirect", "url": url,
                                               "body": resp.read(2000).decode(errors="replace")})
        except urllib.error.HTTPError as e:
            location = e.headers.get("Location")
            if e.code not in (301, 302, 303, 307, 308) or not location:
                raise OAuthError(e.code, {"error": "unexpected_response", "url": url,
                                          "body": e.read(2000).decode(errors="replace")}) from None
            url = urllib.parse.urljoin(url, location)
    raise OAuthError(0, {"error": "too_many_redirects", "url": url})


def authorize_headless(authorization_url: str, redirect_uri: str | None = None,
                       **kwargs) -> tuple[str, str | None]:
    """(code, state) of authorization_response(): what the MCP SDK 1.x callback_handler returns.
    (SDK 2.x wants AuthorizationCodeResult(**authorization_response(url)), which also has iss.)"""
    params = authorization_response(authorization_url, redirect_uri, **kwargs)
    return params["code"], params.get("state")


class OAuthServer:
    """The node authorization server as a child process (see README.md for the options)."""

    def __init__(self, resource: str | list[str] = DEFAULT_RESOURCE, *, ttl: int | None = None,
                 port: int = 0, clients_file: str | None = None, scope_policy: str | None = None,
                 default_resource: str | None = None, extra_args: list[str] | None = None,
                 startup_timeout: float = 180):
        resources = [resource] if isinstance(resource, str) else list(resource)
        self.resource = next((r for r in resources if r != "*"), DEFAULT_RESOURCE)
        self.args = ["--port", str(port), "--exit-on-stdin-eof"]
        for r in resources:
            self.args += ["--resource", r]
        if ttl is not None:
            self.args += ["--ttl", str(ttl)]
        if clients_file is not None:
            self.args += ["--clients", clients_file]
        if scope_policy is not None:
            self.args += ["--scope-policy", scope_policy]
        if default_resource is not None:
            self.args += ["--default-resource", default_resource]
        self.args += list(extra_args or [])
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen | None = None
        self.ready: dict = {}
        self.log_path: str | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> "OAuthServer":
        ensure_node_modules()
        log = tempfile.NamedTemporaryFile(prefix="oauth-server-", suffix=".log", delete=False)
        self.log_path = log.name
        env = {k: v for k, v in os.environ.items() if not k.startswith("OAUTH_")}
        self.proc = subprocess.Popen(["node", os.path.join(HERE, "server.mjs"), *self.args],
                                     cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=log, env=env, text=True)
        log.close()
        lines: queue.Queue = queue.Queue()

        def pump(stream):
            for line in stream:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, args=(self.proc.stdout,), daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                raise RuntimeError(f"OAuth test server did not start; its log:\n{self.log()}")
            if line.startswith("{"):
                self.ready = json.loads(line)
                return self

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.proc = None

    def log(self) -> str:
        if not self.log_path:
            return ""
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def __enter__(self) -> "OAuthServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- endpoints ---------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        return self.ready["issuer"]

    @property
    def token_endpoint(self) -> str:
        return self.ready["token_endpoint"]

    @property
    def jwks_uri(self) -> str:
        return self.ready["jwks_uri"]

    def metadata(self) -> dict:
        """RFC 8414 authorization server metadata (also at /.well-known/openid-configuration)."""
        return _request(f"{self.issuer}/.well-known/oauth-authorization-server")[1]

    def jwks(self) -> dict:
        return _request(self.jwks_uri)[1]

    # -- tokens ------------------------------------------------------------------------------

    def token_response(self, client_id: str, secret: str, scope: str | None = None,
                       resource=_USE_DEFAULT, auth: str = "basic") -> tuple[int, dict]:
        """POST a client_credentials request; (status, JSON body), errors included.

        resource defaults to the server's primary resource; pass None to send none. auth is
        "basic" (client_secret_basic, what the static clients are registered with) or "post".
        """
        form = {"grant_type": "client_credentials"}
        if scope is not None:
            form["scope"] = scope
        if resource is _USE_DEFAULT:
            resource = self.resource
        if resource is not None:
            form["resource"] = resource
        headers = {"Accept": "application/json"}
        if auth == "basic":
            cred = f"{urllib.parse.quote(client_id, safe='')}:{urllib.parse.quote(secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(cred.encode()).decode()
        else:
            form.update(client_id=client_id, client_secret=secret)
        return _request(self.token_endpoint, form, headers)

    def get_token(self, client_id: str, secret: str | None = None, scope: str | None = None,
                  resource=_USE_DEFAULT, auth: str = "basic") -> str:
        """A client_credentials access token (a JWT when a resource is given); OAuthError if refused."""
        if secret is None:
            secret = CLIENTS[client_id][0]
        status, body = self.token_response(client_id, secret, scope, resource, auth)
        if status != 200 or "access_token" not in body:
            raise OAuthError(status, body)
        return body["access_token"]

    # -- test-only admin endpoints -----------------------------------------------------------

    def _admin(self, route: str, query: dict | None = None, body: dict | None = None,
               method: str = "POST") -> dict:
        url = f"{self.ready['admin_url']}/{route}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else (b"" if method == "POST" else None)
        status, resp = _request(url, data, {"Content-Type": "application/json"}, method)
        if status != 200:
            raise OAuthError(status, resp)
        return resp

    def rotate_key(self, drop_old: bool = False) -> str:
        """New signing key; old ones stay in the JWKS unless drop_old. Returns the new kid."""
        return self._admin("rotate", {"drop_old": "1"} if drop_old else None)["kid"]

    def set_ttl(self, seconds: int) -> None:
        """Lifetime of access tokens issued from now on."""
        self._admin("ttl", {"seconds": seconds})

    def state(self) -> dict:
        return self._admin("state", method="GET")

    def mint(self, claims: dict | None = None, header: dict | None = None,
             key: str = "current") -> str:
        """A token signed by the server's key (or "unpublished", or a kid) with any claims, e.g.
        mint({"exp": 1}) for an expired one. Claims/header default to a valid operator token;
        a value of None removes that claim or header field."""
        body = {"claims": claims or {}, "header": header or {}, "key": key}
        return self._admin("mint", body=body)["access_token"]


# ------------------------------------------------------------------------------------------------
# Self-check: python3 oauth_server.py
# ------------------------------------------------------------------------------------------------

def _selfcheck() -> None:
    def show(label, token):
        header, claims = decode_jwt(token)
        print(f"{label}: header={json.dumps(header)}")
        print(f"{' ' * len(label)}  claims={json.dumps(claims)}")
        return header, claims

    def register(auth, redirect_uri):
        status, reg = _request(auth.ready["registration_endpoint"], json.dumps({
            "redirect_uris": [redirect_uri], "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "client_name": "selfcheck", "scope": "arm:move arm:read offline_access",
        }).encode(), {"Content-Type": "application/json"})
        assert status == 201, (status, reg)
        return reg

    def code_flow(auth, client_id, redirect_uri, scope):
        verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
        challenge = base64.urlsafe_b64encode(
            hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        url = auth.ready["authorization_endpoint"] + "?" + urllib.parse.urlencode({
            "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
            "scope": scope, "state": "xyz", "code_challenge": challenge, "prompt": "consent",
            "code_challenge_method": "S256", "resource": auth.resource,
        })
        params = authorization_response(url)
        assert params["state"] == "xyz" and params["iss"] == auth.issuer, params
        status, tok = _request(auth.token_endpoint, {
            "grant_type": "authorization_code", "code": params["code"],
            "redirect_uri": redirect_uri, "client_id": client_id, "code_verifier": verifier,
            "resource": auth.resource,
        })
        assert status == 200, (status, tok)
        return tok

    with OAuthServer(DEFAULT_RESOURCE, ttl=300) as auth:
        print("ready line:", json.dumps(auth.ready))
        meta = auth.metadata()
        assert meta["issuer"] == auth.issuer and meta["jwks_uri"] == auth.jwks_uri
        jwks1 = auth.jwks()
        kid1 = [k["kid"] for k in jwks1["keys"]]
        print("jwks kids:", kid1)

        op = auth.get_token("arm-operator", scope="arm:move arm:read")
        h, c = show("arm-operator", op)
        assert h["alg"] == "RS256" and h["kid"] == kid1[0] and h["typ"] == "at+jwt"
        assert c["iss"] == auth.issuer and c["aud"] == DEFAULT_RESOURCE
        assert c["scope"] == "arm:move arm:read" and c["client_id"] == c["sub"] == "arm-operator"
        assert c["exp"] - c["iat"] == 300 and verify_rs256(op, jwks1) == c

        viewer = auth.get_token("arm-viewer", scope="arm:read")
        _, c = show("arm-viewer", viewer)
        assert c["scope"] == "arm:read" and verify_rs256(viewer, jwks1)

        _, c = decode_jwt(auth.get_token("arm-operator"))
        print("arm-operator, no scope parameter: scope =", c.get("scope"))

        status, body = auth.token_response("arm-viewer", "arm-viewer-secret", "arm:read arm:move")
        print("arm-viewer asking for arm:move:", status, body)
        assert status == 400 and body["error"] == "invalid_scope"

        status, body = auth.token_response("arm-viewer", "wrong", "arm:read")
        print("wrong secret:", status, body)
        assert status == 401 and body["error"] == "invalid_client"

        status, body = auth.token_response("arm-operator", "arm-operator-secret", "arm:read",
                                           resource="http://127.0.0.1:9999/other")
        print("unknown resource:", status, body)
        assert status == 400 and body["error"] == "invalid_target"

        status, body = auth.token_response("arm-operator", "arm-operator-secret", "arm:read",
                                           resource=None)
        print("no resource:", status, {k: (v[:16] + "...") if k == "access_token" else v
                                       for k, v in body.items()})
        assert status == 200 and "." not in body["access_token"]  # opaque, not a JWT

        status, body = auth.token_response("arm-operator", "arm-operator-secret", "arm:read",
                                           auth="post")
        print("client_secret_post instead of basic:", status, body.get("error", "accepted"))

        redirect_uri = "http://127.0.0.1:1/callback"
        reg = register(auth, redirect_uri)  # before the rotations: must survive them

        new_kid = auth.rotate_key()
        rotated = auth.get_token("arm-operator", scope="arm:read")
        h, _ = show("after rotate", rotated)
        jwks2 = auth.jwks()
        kid2 = [k["kid"] for k in jwks2["keys"]]
        print("jwks kids after rotate:", kid2)
        assert h["kid"] == new_kid != kid1[0] and kid2 == [new_kid, kid1[0]]
        assert verify_rs256(rotated, jwks2) and verify_rs256(op, jwks2)  # old token still checks

        newest = auth.rotate_key(drop_old=True)
        jwks3 = auth.jwks()
        kid3 = [k["kid"] for k in jwks3["keys"]]
        print("jwks kids after rotate(drop_old=True):", kid3)
        assert kid3 == [newest]
        assert decode_jwt(auth.get_token("arm-viewer", scope="arm:read"))[0]["kid"] == newest
        for old in (op, rotated):
            try:
                verify_rs256(old, jwks3)
                raise AssertionError("a token of a dropped key still verified")
            except ValueError:
                pass

        auth.set_ttl(2)
        short = auth.get_token("arm-viewer", scope="arm:read")
        _, c = decode_jwt(short)
        print("ttl=2 token: exp - iat =", c["exp"] - c["iat"])
        assert c["exp"] - c["iat"] == 2
        auth.set_ttl(300)
        expired = auth.mint({"iat": 1_000_000_000, "exp": 1_000_000_060})
        show("minted expired", expired)
        assert verify_rs256(expired, jwks3)
        try:
            verify_rs256(auth.mint(key="unpublished"), jwks3)
            raise AssertionError("an unpublished key verified")
        except ValueError:
            pass

        # Authorization code + PKCE, headless, with the client registered before the rotations.
        tok = code_flow(auth, reg["client_id"], redirect_uri, "arm:move arm:read offline_access")
        _, c = show("auth code + PKCE (DCR client)", tok["access_token"])
        assert c["aud"] == DEFAULT_RESOURCE and c["sub"] == "test-user"
        assert c["scope"] == "arm:move arm:read" and verify_rs256(tok["access_token"], jwks3)
        status, ref = _request(auth.token_endpoint, {
            "grant_type": "refresh_token", "refresh_token": tok["refresh_token"],
            "client_id": reg["client_id"], "resource": DEFAULT_RESOURCE,
        })
        assert status == 200, (status, ref)
        _, c = decode_jwt(ref["access_token"])
        print("refresh_token grant: aud =", c["aud"], "scope =", c["scope"])
        assert c["aud"] == DEFAULT_RESOURCE

    # The other policies: downscope, and a default resource for requests without one.
    with OAuthServer(DEFAULT_RESOURCE, scope_policy="downscope",
                     default_resource=DEFAULT_RESOURCE) as auth:
        status, body = auth.token_response("arm-viewer", "arm-viewer-secret", "arm:read arm:move")
        print("downscope policy, arm-viewer asking for arm:move:", status, body.get("scope"))
        assert status == 200 and decode_jwt(body["access_token"])[1]["scope"] == "arm:read"
        _, c = decode_jwt(auth.get_token("arm-operator", scope="arm:read", resource=None))
        print("default resource, request without one: aud =", c["aud"])
        assert c["aud"] == DEFAULT_RESOURCE
    print("selfcheck: 1 passed, 0 failed")


if __name__ == "__main__":
    _selfcheck()
