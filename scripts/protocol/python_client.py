"""
The Python MCP SDK (PyPI `mcp`, 2.x) against a running server, in its default mode: over
Streamable HTTP it must settle on protocol 2026-07-28 with no request refused (every HTTP answer
below 400: no fallback round trip), list every tool and call one; over stdio (`npm run
mcp:stdio`'s entry point on the server's DATA_DIR) it must settle on 2026-07-28 too.

    python scripts/protocol/python_client.py BASE_URL API_KEY [DATA_DIR]
"""
import asyncio
import os
import sys

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

EXPECTED_VERSION = "2026-07-28"
STDIO_ENTRY = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "server", "dist", "mcp-stdio.js")


async def exercise(client: Client, label: str, failures: list[str]) -> None:
    tools = await client.list_tools()
    result = await client.call_tool("web_search", {"query": "bread", "limit": 2})
    version = client.protocol_version
    names = sorted(tool.name for tool in tools.tools)
    print(f"{label}: protocol {version}; {len(names)} tools ({', '.join(names)}); web_search isError={result.is_error}")
    if version != EXPECTED_VERSION:
        failures.append(f"{label}: negotiated {version}, expected {EXPECTED_VERSION}")
    if result.is_error or result.structured_content is None or "results" not in result.structured_content:
        failures.append(f"{label}: web_search did not answer a search body: {result}")


async def main(base: str, key: str, data_dir: str | None) -> int:
    failures: list[str] = []
    answers: list[tuple[str, int]] = []

    async def record(response):
        answers.append((response.request.method, response.status_code))

    http = create_mcp_http_client(headers={"x-api-key": key})
    http.event_hooks["response"].append(record)
    async with http:
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client:
            await exercise(client, "HTTP", failures)
    print("HTTP answers: " + ", ".join(f"{method} {status}" for method, status in answers))
    refused = [answer for answer in answers if answer[1] >= 400]
    if refused:
        failures.append(f"HTTP: refused requests: {refused}")

    if data_dir:
        stdio = StdioServerParameters(
            command="node",
            args=[STDIO_ENTRY],
            env={**os.environ, "DATA_DIR": data_dir, "EVIDENCE_API_KEY": key, "EMBED_THREADS": "0"},
        )
        async with Client(stdio) as client:
            await exercise(client, "stdio", failures)

    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)))
