"""``task()`` from code: one subagent dispatch per call, its stream events, and a stable id per dispatch.

The id is derived from the eval's tool-call id and the call's place and arguments, so a resumed run (after a human
interrupt in a subagent) dispatches the same subagents under the same ids.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphBubbleUp

from ..errors import HostCallError
from ._context import EvalContext
from ._events import SubagentCompleteEvent, SubagentErrorEvent, SubagentStartEvent

logger = logging.getLogger("langchain_graalvm.ptc")


class SubagentDispatch:
    """The ``task()`` calls of one eval: at most ``ctx.max_subagents`` at once, each a child run of the eval."""

    def __init__(self, ctx: EvalContext, child_config: Callable[[], RunnableConfig]) -> None:
        self._ctx = ctx
        self._child_config = child_config
        self._ordinal = 0
        self._subagents = asyncio.Semaphore(ctx.max_subagents)

    async def run(self, spec: dict[str, Any]) -> Any:
        """Dispatches one ``task()`` call of the guest and returns the subagent's answer."""
        description = spec.get("description")
        subagent_type = spec.get("subagentType", spec.get("subagent_type"))
        label = spec.get("label")
        if not isinstance(description, str) or not description.strip():
            raise HostCallError("ValueError", "task() requires a non-empty string field `description`")
        if not isinstance(subagent_type, str) or not subagent_type.strip():
            raise HostCallError("ValueError", "task() requires a non-empty string field `subagentType`")
        if label is not None and not isinstance(label, str):
            raise HostCallError("ValueError", "task() field `label` must be a string when provided")
        if spec.get("responseSchema") is not None:
            raise HostCallError(
                "ValueError",
                "task() does not take `responseSchema` here; ask for JSON in the description and JSON.parse "
                "the answer.",
            )
        tool = self._ctx.task_tool
        runtime = self._ctx.runtime
        if tool is None or runtime is None:
            raise HostCallError("RuntimeError", "task tool not configured for this eval")
        eval_id = getattr(runtime, "tool_call_id", None) or ""
        ordinal = self._ordinal
        self._ordinal += 1
        label = " ".join((label or "").split())
        if eval_id:
            key = json.dumps(
                ["langchain-graalvm-subagent-v1", eval_id, tool.name, ordinal, subagent_type, description, label],
                sort_keys=True,
                separators=(",", ":"),
            )
            dispatch_id = f"ptc_{tool.name}_{hashlib.sha256(key.encode()).hexdigest()[:32]}"
        else:
            dispatch_id = f"ptc_{tool.name}_{uuid.uuid4().hex}"
        async with self._subagents:
            shown = label[:120] if label else " ".join(description.split())[:60]
            start: SubagentStartEvent = {
                "type": "subagent",
                "phase": "start",
                "id": dispatch_id,
                "subagent_type": subagent_type,
                "label": shown,
                "description": description[:200],
            }
            self._emit(start, eval_id)
            began = time.monotonic()
            try:
                result = await tool.arun(
                    {
                        "description": description,
                        "subagent_type": subagent_type,
                        "runtime": dataclasses.replace(runtime, tool_call_id=dispatch_id),
                    },
                    callbacks=self._child_config().get("callbacks"),
                    config=self._child_config(),
                    tool_call_id=dispatch_id,
                )
            except Exception as exc:
                if not isinstance(exc, GraphBubbleUp):
                    failed: SubagentErrorEvent = {
                        "type": "subagent",
                        "phase": "error",
                        "id": dispatch_id,
                        "duration_ms": int((time.monotonic() - began) * 1000),
                        "error": str(exc),
                    }
                    self._emit(failed, eval_id)
                raise
            done: SubagentCompleteEvent = {
                "type": "subagent",
                "phase": "complete",
                "id": dispatch_id,
                "duration_ms": int((time.monotonic() - began) * 1000),
            }
            self._emit(done, eval_id)
            return result

    def _emit(self, event: Mapping[str, Any], eval_id: str) -> None:
        runtime = self._ctx.runtime
        writer = getattr(runtime, "stream_writer", None)
        if writer is None:
            return
        payload = dict(event)
        if eval_id:
            payload["eval_id"] = eval_id
        try:
            writer(payload)
        except Exception:  # noqa: BLE001 - a broken stream consumer must not fail the dispatch
            logger.debug("subagent stream event dropped", exc_info=True)
