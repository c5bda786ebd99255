"""The custom stream events of an eval (``stream_mode="custom"``): ``task()`` dispatched from code, and what the
guest prints while the cell runs; public names."""

from __future__ import annotations

from typing import Literal, TypedDict


class SubagentStartEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch started."""

    type: Literal["subagent"]
    phase: Literal["start"]
    id: str
    subagent_type: str
    label: str
    description: str
    eval_id: str


class SubagentCompleteEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch finished."""

    type: Literal["subagent"]
    phase: Literal["complete"]
    id: str
    duration_ms: int
    eval_id: str


class SubagentErrorEvent(TypedDict, total=False):
    """Custom stream event: a ``task()`` dispatch failed."""

    type: Literal["subagent"]
    phase: Literal["error"]
    id: str
    duration_ms: int
    error: str
    eval_id: str


SubagentStreamEvent = SubagentStartEvent | SubagentCompleteEvent | SubagentErrorEvent


class EvalOutputEvent(TypedDict, total=False):
    """Custom stream event: what the guest printed while the cell runs (``console.*`` in JavaScript,
    ``sys.stdout``/``sys.stderr`` in Python), in order; consecutive writes to one stream may come as one event."""

    type: Literal["eval_output"]
    stream: Literal["stdout", "stderr"]
    text: str
    eval_id: str
