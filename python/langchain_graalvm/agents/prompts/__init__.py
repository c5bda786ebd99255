"""What the model is told about the interpreter, one module per guest language behind :class:`GuestPrompt`.

``javascript`` and ``python`` each render the eval tool's description, the system-prompt section and the
``tools.*`` / ``task`` sections in their language's words and syntax; ``_base`` holds what they share.
"""

from __future__ import annotations

from ...options import Language
from ._base import GuestPrompt, PromptConfig
from .javascript import JavaScriptPrompt
from .python import PythonPrompt

_PROMPTS: dict[Language, GuestPrompt] = {"js": JavaScriptPrompt(), "python": PythonPrompt()}


def for_language(language: Language) -> GuestPrompt:
    """The prompt of the guest ``language`` (``"js"`` or ``"python"``)."""
    return _PROMPTS[language]


__all__ = ["GuestPrompt", "PromptConfig", "for_language"]
