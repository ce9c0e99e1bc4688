"""Reading request bodies with a ceiling: refused by Content-Length before a byte is read, and counted while
streaming (a chunked upload has no Content-Length). Uploads are multipart/form-data, spooled to disk above
1 MB by Starlette's parser, with the same per-file limit as Slack and the CLI (`MASIS_MAX_FILE_BYTES`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from masis.api.errors import ApiError
from masis.sizes import human_size

JSON_LIMIT = 64 * 1024  # a question is at most 4000 characters
MULTIPART_OVERHEAD = 1024 * 1024  # boundaries, part headers and small fields around the files
MAX_FIELD_BYTES = 4 * 1024


def _too_large(limit: int) -> ApiError:
    return ApiError(413, f"The request is larger than {human_size(limit)}.", {"limit_bytes": limit})


async def limited_stream(request: Request, limit: int) -> AsyncIterator[bytes]:
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ApiError(400, "The Content-Length header is not a number.")
        if int(declared) > limit:
            raise _too_large(limit)
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > limit:
            raise _too_large(limit)
        yield chunk


async def read_json_body(request: Request, limit: int = JSON_LIMIT) -> bytes:
    body = b"".join([chunk async for chunk in limited_stream(request, limit)])
    if not body.strip():
        raise ApiError(422, "The request body is empty; send a JSON object.")
    return body


async def read_uploads(
    request: Request, *, max_files: int, max_file_bytes: int
) -> tuple[list[tuple[str, bytes]], dict[str, str]]:
    """The uploaded files as (client's file name, bytes), and the form's text fields."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        raise ApiError(415, "Upload files as multipart/form-data, e.g. curl -F file=@report.pdf.")
    limit = max_files * max_file_bytes + MULTIPART_OVERHEAD
    parser = MultiPartParser(
        request.headers,
        limited_stream(request, limit),
        max_files=max_files,
        max_fields=10,
        max_part_size=MAX_FIELD_BYTES,
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise ApiError(400, f"The upload is not valid multipart/form-data: {exc.message}") from None
    try:
        uploads = [value for _, value in form.multi_items() if isinstance(value, UploadFile)]
        fields = {key: value for key, value in form.multi_items() if isinstance(value, str)}
        if not uploads:
            raise ApiError(400, "Attach at least one file, e.g. curl -F file=@report.pdf.")
        too_big = [u.filename or "(unnamed)" for u in uploads if (u.size or 0) > max_file_bytes]
        if too_big:
            raise ApiError(
                413,
                f"{', '.join(too_big)}: larger than the {human_size(max_file_bytes)} limit per file; "
                "nothing was indexed.",
                {"limit_bytes": max_file_bytes, "files": too_big},
            )
        return [(u.filename or "", await u.read()) for u in uploads], fields
    finally:
        await form.close()
