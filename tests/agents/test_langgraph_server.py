"""The LangGraph server: ``langgraph dev`` serving ``examples/langgraph``, driven with the real ``langgraph-sdk``.

The server runs in a process of its own on a free local port (no reload, no browser, no analytics, no version
check, no tracing: nothing leaves 127.0.0.1) and is stopped at the end. Two threads take turns over several runs;
each keeps its own interpreter globals (a class, a function and data) from run to run, and neither sees the
other's.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client

from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "langgraph"
OFFLINE = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGSMITH_API_KEY": "",
    "LANGCHAIN_GRAALVM_SIGNING_KEY": "example signing key",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    # A copy of the example, so the server's own files (.langgraph_api/) stay out of the checkout.
    app = shutil.copytree(EXAMPLE, tmp_path_factory.mktemp("langgraph") / "app")
    log = app / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_API"))}
    env.update(OFFLINE)
    langgraph = Path(sys.executable).with_name("langgraph")
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(langgraph), "dev", "--port", str(port), "--host", "127.0.0.1", "--no-browser", "--no-reload"],
            cwd=app,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            if process.poll() is not None:
                pytest.fail(f"langgraph dev exited with {process.returncode}:\n{log.read_text()[-4000:]}")
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("langgraph dev did not answer /ok within 300 s:\n" + log.read_text()[-4000:])
            time.sleep(0.5)
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    text = log.read_text()
    assert "Traceback" not in text, text[-4000:]


async def _say(client: object, thread_id: str, text: str) -> str:
    run = await client.runs.wait(  # type: ignore[attr-defined]
        thread_id, "ledger", input={"messages": [{"role": "human", "content": text}]}
    )
    return str(run["messages"][-1]["content"])


def test_two_threads_keep_their_own_interpreter_state_across_runs(server: str) -> None:
    async def drive() -> None:
        async with get_client(url=server) as client:
            acme = (await client.threads.create())["thread_id"]
            globex = (await client.threads.create())["thread_id"]
            assert await _say(client, acme, "Open a ledger for ACME.") == "Opened a ledger for ACME."
            assert await _say(client, globex, "Open a ledger for Globex.") == "Opened a ledger for Globex."
            assert await _say(client, acme, "Record 120 (invoice).") == "Recorded; the ledger has 1 entries."
            assert await _say(client, globex, "Record 80 (invoice).") == "Recorded; the ledger has 1 entries."
            assert await _say(client, acme, "Record 30 (refund).") == "Recorded; the ledger has 2 entries."
            assert await _say(client, globex, "Record 80 (invoice).") == "Recorded; the ledger has 2 entries."
            assert await _say(client, acme, "What is the balance?") == "ACME: 90 over 2 entries"
            assert await _say(client, globex, "What is the balance?") == "Globex: 160 over 2 entries"
            # A third thread has no ledger: nothing leaks between threads.
            fresh = (await client.threads.create())["thread_id"]
            answer = await _say(client, fresh, "What is the balance?")
            assert answer.startswith("ledger is not defined"), answer
            # The server's stored state of the thread agrees.
            state = await client.threads.get_state(acme)
            assert state["values"]["messages"][-1]["content"] == "ACME: 90 over 2 entries"

    asyncio.run(drive())


def _interrupts(state: dict) -> list[dict]:  # type: ignore[type-arg]
    return [i["value"] for task in state.get("tasks", []) for i in task.get("interrupts", [])]


def test_a_client_approves_a_call_from_code(server: str) -> None:
    async def drive() -> None:
        async with get_client(url=server) as client:
            for decision, answer in [
                ({"type": "approve"}, "sent 'Hello' to ann@example.com (1 draft)"),
                ({"type": "reject", "message": "not today"}, "ToolRejected: tools.sendEmail: the reviewer rejected "
                 "this call: not today (2 draft)"),
            ]:
                thread_id = (await client.threads.create())["thread_id"]
                await client.runs.wait(thread_id, "review", input={"messages": [{"role": "human", "content": "Email Ann."}]})
                (request,) = _interrupts(await client.threads.get_state(thread_id))
                assert request["action_requests"][0]["name"] == "send_email"
                assert request["action_requests"][0]["args"] == {"to": "ann@example.com", "subject": "Hello"}
                assert request["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject", "respond"]
                run = await client.runs.wait(thread_id, "review", command={"resume": {"decisions": [decision]}})
                assert run["messages"][-1]["content"] == answer

    asyncio.run(drive())
