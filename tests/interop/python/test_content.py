"""Content blocks (image, audio, embedded resource, several blocks) returned by toolwright tools,
through the official Python MCP SDK (PyPI `mcp`, 1.x and 2.x lines), against the conformance
example (examples/examples/conformance.rs) over stdio.

    CONFORMANCE_BIN=target/debug/examples/conformance python -m pytest tests/interop/python/test_content.py
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest

from test_robot_arm import BIN, MCP_MAJOR, MODES, attr, run

CONFORMANCE = Path(os.environ.get("CONFORMANCE_BIN", BIN.parent / "conformance"))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def blocks(conn: Any, name: str, arguments: dict[str, Any] | None = None) -> tuple[bool, list[Any]]:
    """Calls a tool and returns (isError, its content blocks)."""
    r = await conn._session.call_tool(name, arguments or {})
    return bool(attr(r, "isError", "is_error")), list(r.content)


def mime(block: Any) -> str:
    return attr(block, "mimeType", "mime_type")


@pytest.mark.parametrize("mode", MODES)
def test_each_content_kind_arrives_as_the_sdk_types_it(mode: str) -> None:
    async def body(conn: Any) -> None:
        tools = {t.name: t for t in await conn.list_tools()}
        # Content tools publish no outputSchema: there is no structuredContent to validate.
        for name in ["test_image_content", "test_audio_content", "test_embedded_resource", "test_multiple_content_types"]:
            assert attr(tools[name], "outputSchema", "output_schema") is None, name

        is_error, [image] = await blocks(conn, "test_image_content")
        assert not is_error
        assert image.type == "image" and mime(image) == "image/png"
        assert base64.b64decode(image.data).startswith(PNG_SIGNATURE)

        _, [audio] = await blocks(conn, "test_audio_content")
        assert audio.type == "audio" and mime(audio) == "audio/wav"
        assert base64.b64decode(audio.data)[:4] == b"RIFF"

        _, [resource] = await blocks(conn, "test_embedded_resource")
        assert resource.type == "resource"
        assert str(resource.resource.uri) == "test://embedded-resource"
        assert resource.resource.text == "This is an embedded resource content."

        _, mixed = await blocks(conn, "test_multiple_content_types")
        assert [b.type for b in mixed] == ["text", "image", "resource"]
        assert mixed[0].text == "Multiple content types test:"
        assert json.loads(mixed[2].resource.text) == {"test": "data", "value": 123}

        is_error, [error] = await blocks(conn, "test_error_handling")
        assert is_error and "intentionally returns an error" in error.text

    run(body, mode, bin=CONFORMANCE)
