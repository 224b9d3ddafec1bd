"""A tool talking to the client through its Context: log messages (honouring logging/setLevel),
sampling and elicitation (accepted, declined, cancelled, and a client without the capability),
through the official Python MCP SDK (PyPI `mcp`, 1.x and 2.x lines), against the conformance
example (examples/examples/conformance.rs) over stdio.

On the 2.x line the default mode negotiates protocol 2026-07-28, where a server may not send
requests to the client during a call: questions go back in `input_required` results and the
SDK's retry runs the body again with the answers (multi-round-trip requests). The other paths
run in 2.x's `legacy` mode (initialize).

    CONFORMANCE_BIN=target/debug/examples/conformance python -m pytest tests/interop/python/test_client_features.py
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from test_robot_arm import BIN, MCP_MAJOR, TEST_TIMEOUT_S, attr

CONFORMANCE = Path(os.environ.get("CONFORMANCE_BIN", BIN.parent / "conformance"))

# The mode that negotiates a protocol where servers may ask the client during a call.
HANDSHAKE = "initialize" if MCP_MAJOR == 1 else "legacy"


class Recorder:
    """A client's callbacks, answering as configured and recording what the server sent."""

    def __init__(self, elicit_action: str = "accept", elicit_content: dict[str, Any] | None = None):
        self.logs: list[tuple[str, Any]] = []
        self.sampled: list[Any] = []
        self.elicited: list[Any] = []
        self.elicit_action = elicit_action
        self.elicit_content = elicit_content

    async def logging(self, params: Any) -> None:
        self.logs.append((str(params.level), params.data))

    async def sampling(self, context: Any, params: Any) -> Any:
        self.sampled.append(params)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Forty-two."),
            model="test-model",
            **{"stopReason" if MCP_MAJOR == 1 else "stop_reason": "endTurn"},
        )

    async def elicitation(self, context: Any, params: Any) -> Any:
        self.elicited.append(params)
        return types.ElicitResult(action=self.elicit_action, content=self.elicit_content)


@asynccontextmanager
async def connect(mode: str, recorder: Recorder | None, *, log_level: str | None = None):
    """A session with the callbacks of `recorder` (none: a client with no capability)."""
    assert CONFORMANCE.is_file(), f"{CONFORMANCE} does not exist: cargo build --example conformance"
    params = StdioServerParameters(command=str(CONFORMANCE), args=[], env={"RUST_LOG": "warn"})
    callbacks: dict[str, Any] = {}
    if recorder is not None:
        callbacks = {
            "sampling_callback": recorder.sampling,
            "elicitation_callback": recorder.elicitation,
            "logging_callback": recorder.logging,
        }
    with tempfile.TemporaryFile("w+") as errlog:
        if MCP_MAJOR == 1:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, **callbacks) as session:
                    await session.initialize()
                    yield session
        else:
            from mcp import Client

            extra = {"log_level": log_level} if log_level else {}
            async with Client(stdio_client(params, errlog=errlog), mode=mode, **callbacks, **extra) as client:
                yield client


def run(body, mode: str, recorder: Recorder | None, **kw: Any) -> None:
    async def main() -> None:
        with anyio.fail_after(TEST_TIMEOUT_S):
            async with connect(mode, recorder, **kw) as session:
                await body(session)

    asyncio.run(main())


async def call(session: Any, name: str, arguments: dict[str, Any] | None = None) -> tuple[bool, str]:
    r = await session.call_tool(name, arguments or {})
    return bool(attr(r, "isError", "is_error")), r.content[0].text


async def eventually(check, timeout: float = 5.0) -> None:
    with anyio.fail_after(timeout):
        while not check():
            await anyio.sleep(0.01)


def test_log_messages_honour_the_level_the_client_sets() -> None:
    recorder = Recorder()

    async def body(session: Any) -> None:
        # Until the client sets a level, info and above are sent.
        await call(session, "test_tool_with_logging")
        await eventually(lambda: len(recorder.logs) == 3)
        assert [data for _, data in recorder.logs] == [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ]
        assert {level for level, _ in recorder.logs} == {"info"}
        # At warning, the tool's info messages are not sent.
        await session.set_logging_level("warning")
        await call(session, "test_tool_with_logging")
        await call(session, "test_simple_text")  # a later response: the logs had their chance
        assert len(recorder.logs) == 3
        await session.set_logging_level("debug")
        await call(session, "test_tool_with_logging")
        await eventually(lambda: len(recorder.logs) == 6)

    run(body, HANDSHAKE, recorder)


def test_sampling_answers_with_the_clients_model() -> None:
    recorder = Recorder()

    async def body(session: Any) -> None:
        is_error, text = await call(session, "test_sampling", {"prompt": "What is six times seven?"})
        assert not is_error, text
        assert text == "LLM response: Forty-two."
        [request] = recorder.sampled
        message = request.messages[0]
        assert message.role == "user" and message.content.text == "What is six times seven?"
        assert attr(request, "maxTokens", "max_tokens") == 100

    run(body, HANDSHAKE, recorder)


@pytest.mark.parametrize(
    "action,content,expected",
    [
        ("accept", {"username": "ada", "email": "ada@example.com"},
         'User response: accept, {"username":"ada","email":"ada@example.com"}'),
        ("decline", None, "User response: decline"),
        ("cancel", None, "User response: cancel"),
    ],
)
def test_elicitation_accepted_declined_or_cancelled(action: str, content: Any, expected: str) -> None:
    recorder = Recorder(action, content)

    async def body(session: Any) -> None:
        is_error, text = await call(session, "test_elicitation", {"message": "Who are you?"})
        assert not is_error, text
        assert text == expected
        [request] = recorder.elicited
        schema = attr(request, "requestedSchema", "requested_schema")
        assert schema["properties"]["email"] == {"type": "string", "description": "User's email address"}
        assert schema["required"] == ["username", "email"]

    run(body, HANDSHAKE, recorder)


def test_a_form_with_defaults_is_filled_in() -> None:
    recorder = Recorder("accept", {"name": "Ada", "status": "pending"})

    async def body(session: Any) -> None:
        is_error, text = await call(session, "test_elicitation_sep1034_defaults")
        assert not is_error, text
        # The answer's missing fields take the published defaults.
        assert text == (
            'Elicitation completed: accept, {"name":"Ada","age":30,"score":95.5,"status":"pending","verified":true}'
        )
        schema = attr(recorder.elicited[0], "requestedSchema", "requested_schema")
        assert schema["properties"]["age"]["type"] == "integer"
        assert schema["properties"]["status"]["enum"] == ["active", "inactive", "pending"]

    run(body, HANDSHAKE, recorder)


def test_an_answer_that_breaks_the_form_is_refused() -> None:
    recorder = Recorder("accept", {"name": "Ada", "status": "archived"})

    async def body(session: Any) -> None:
        is_error, text = await call(session, "test_elicitation_sep1034_defaults")
        assert is_error
        assert "status" in text and "archived" in text, text

    run(body, HANDSHAKE, recorder)


def test_a_client_without_the_capabilities_gets_a_clear_error() -> None:
    async def body(session: Any) -> None:
        is_error, text = await call(session, "test_sampling", {"prompt": "hello"})
        assert is_error
        assert "does not support sampling" in text, text
        is_error, text = await call(session, "test_elicitation", {"message": "hello"})
        assert is_error
        assert "does not support" in text and "elicitation" in text, text

    run(body, HANDSHAKE, None)


if MCP_MAJOR >= 2:  # The 1.x line does not speak protocol 2026-07-28.

    @pytest.mark.parametrize(
        "action,content,expected",
        [
            ("accept", {"username": "ada", "email": "ada@example.com"},
             'User response: accept, {"username":"ada","email":"ada@example.com"}'),
            ("decline", None, "User response: decline"),
        ],
    )
    def test_on_protocol_2026_questions_go_in_rounds_and_the_call_resumes(
        action: str, content: Any, expected: str
    ) -> None:
        """The SDK's default mode: the question comes back as `input_required`, the SDK answers it
        through the same callback and calls again; the body runs again with the answer."""
        recorder = Recorder(action, content)

        async def body(session: Any) -> None:
            assert session.protocol_version >= "2026-07-28", session.protocol_version
            is_error, text = await call(session, "test_elicitation", {"message": "Who are you?"})
            assert not is_error, text
            assert text == expected
            [request] = recorder.elicited
            schema = attr(request, "requestedSchema", "requested_schema")
            assert schema["required"] == ["username", "email"]
            is_error, text = await call(session, "test_sampling", {"prompt": "hello"})
            assert not is_error, text
            assert text == "LLM response: Forty-two."
            assert len(recorder.sampled) == 1

        run(body, "auto", recorder)
