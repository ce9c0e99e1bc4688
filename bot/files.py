"""Fetching files users shared with the bot, with the bot token sent only to Slack.

The token goes to `files.slack.com` (where `url_private_download` points) or to the host of
`SLACK_API_URL` (a proxy or a test emulator), over HTTPS unless `SLACK_API_URL` itself is plain HTTP.
Redirects are followed only to those same hosts. Anything else is refused with a reason the user sees.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlparse

import httpx
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from masis.sizes import human_size

SLACK_FILE_HOSTS = frozenset({"files.slack.com"})
MAX_REDIRECTS = 3


class FileRefused(Exception):
    """This file could not be fetched; the message is the reason shown next to its name."""


class SlackFiles:
    def __init__(
        self,
        client: WebClient,
        *,
        token: str,
        api_url: str,
        max_bytes: int,
        timeout: float = 30.0,
    ) -> None:
        self._client = client
        self._token = token
        api = urlparse(api_url)
        self._api_host = (api.hostname or "").lower()
        self._api_scheme = api.scheme
        self._max_bytes = max_bytes
        self._timeout = timeout

    # --- policy --------------------------------------------------------------------------------------
    def may_send_token(self, url: str) -> bool:
        """Whether the bot token may accompany a request to `url`."""
        parsed = urlparse(url)
        host = (parsed.hostname or "").lower()
        if host in SLACK_FILE_HOSTS:
            return parsed.scheme == "https"
        if host and host == self._api_host:
            return parsed.scheme in ("https", self._api_scheme)
        return False

    # --- fetching ------------------------------------------------------------------------------------
    def describe(self, file: dict[str, Any]) -> dict[str, Any]:
        """The file object with its download URL, asking `files.info` when the event carried a stub."""
        if file.get("url_private_download") or file.get("url_private"):
            return file
        file_id = file.get("id")
        if not file_id:
            raise FileRefused("Slack sent no file id")
        try:
            info = self._client.files_info(file=file_id)
        except SlackApiError as exc:
            raise FileRefused(f"Slack would not describe the file ({exc.response.get('error', 'error')})") from exc
        return {**file, **(info.get("file") or {})}

    def download(self, file: dict[str, Any]) -> tuple[str, bytes]:
        """(name, bytes) of a Slack file object; raises FileRefused with the reason."""
        file = self.describe(file)
        name = str(file.get("name") or file.get("title") or file.get("id") or "file")
        if file.get("mode") in ("tombstone", "hidden_by_limit") or file.get("file_access") == "access_denied":
            raise FileRefused("Slack does not let me read this file")
        url = file.get("url_private_download") or file.get("url_private")
        if not url:
            raise FileRefused("Slack gave no download link for this file")
        size = file.get("size")
        if isinstance(size, int) and size > self._max_bytes:
            raise FileRefused(self._too_large())
        data, content_type = self._get(str(url))
        if "text/html" in content_type and str(file.get("filetype", "")).lower() not in ("html", "htm"):
            raise FileRefused(
                "Slack returned a sign-in page instead of the file; the app needs the files:read scope"
            )
        return name, data

    def _too_large(self) -> str:
        return f"the file is larger than the {human_size(self._max_bytes)} limit"

    def _get(self, url: str) -> tuple[bytes, str]:
        with httpx.Client(timeout=self._timeout, follow_redirects=False) as http:
            for _ in range(MAX_REDIRECTS + 1):
                if not self.may_send_token(url):
                    raise FileRefused("the download link does not point at Slack, so I did not send my credentials")
                with http.stream("GET", url, headers={"Authorization": f"Bearer {self._token}"}) as resp:
                    if resp.is_redirect:
                        url = urljoin(url, resp.headers.get("location", ""))
                        continue
                    if resp.status_code != 200:
                        raise FileRefused(f"Slack answered the download with HTTP {resp.status_code}")
                    chunks: list[bytes] = []
                    total = 0
                    for chunk in resp.iter_bytes():
                        total += len(chunk)
                        if total > self._max_bytes:
                            raise FileRefused(self._too_large())
                        chunks.append(chunk)
                    return b"".join(chunks), resp.headers.get("content-type", "")
        raise FileRefused("the download link redirected too many times")
