"""The custom stream events of ``task()`` dispatched from code (``stream_mode="custom"``); public names."""

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
