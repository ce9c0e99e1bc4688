"""The HTTP API: `/masis/...` routes over the Engine, mounted beside Slack's endpoint by `bot.server`."""

from masis.api.app import api_routes, api_token

__all__ = ["api_routes", "api_token"]
