"""The Slack face of MASIS (slack-bolt): mentions answered in threads, clarifications resumed from a
plain reply, /masis-upload. It calls the engine's public API and renders what comes back."""

from __future__ import annotations

__all__ = ["build_app", "build_asgi", "serve"]


def __getattr__(name: str):  # lazy: `import bot` stays cheap, and needs no Slack packages until used
    if name == "build_app":
        from bot.app import build_app

        return build_app
    if name in ("build_asgi", "serve"):
        from bot import server

        return getattr(server, name)
    raise AttributeError(name)
