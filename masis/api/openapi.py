"""The API's OpenAPI 3.1 description (`GET /openapi.json`) and a plain HTML page of it (`GET /docs`).

The paths are written here; the bodies' schemas come from the Pydantic models the routes validate and
answer with, so the two cannot drift apart. The page needs no JavaScript and loads nothing from elsewhere.
"""

from __future__ import annotations

import html
import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from masis.api.models import (
    THREAD_ID,
    WORKSPACE_ID,
    ApiOutcome,
    AskRequest,
    DocumentList,
    ErrorBody,
    FeedbackRequest,
    FeedbackResult,
    IngestResponse,
    Readiness,
    Removed,
    ReplyRequest,
    ThreadState,
)

_REQUESTS: tuple[type[BaseModel], ...] = (AskRequest, ReplyRequest, FeedbackRequest)
_RESPONSES: tuple[type[BaseModel], ...] = (
    ApiOutcome, ThreadState, DocumentList, IngestResponse, Removed, Readiness, ErrorBody, FeedbackResult
)
_ERRORS = {
    "400": "A malformed id, file name or upload",
    "401": "Missing or wrong bearer token",
    "404": "Unknown thread, answer or document (or the API is off)",
    "409": "Nothing is waiting for a reply, the reply's `round` is no longer the pending one, the thread "
    "belongs to another workspace, or the question voted on has no answer to rate (a clarifying question's "
    "unverified draft, a cancelled question)",
    "413": "The body or a file is over the limit",
    "415": "An upload that is not multipart/form-data",
    "422": "The JSON body is not valid (or no uploaded file could be indexed)",
    "429": "The workspace already has as many requests waiting as it may (`MASIS_WORKSPACE_BACKLOG`), or the "
    "thread had as many votes this minute as it may (`MASIS_FEEDBACK_PER_MINUTE`): nothing was queued or "
    "recorded; `Retry-After` is a rough wait in seconds",
    "500": "An unexpected error (logged on the server)",
    "502": "The language model answered with an error or with nothing usable (a refused key, an unknown model, "
    "a server error): the server's side failed, not the request; `error` says what the model said, without secrets",
    "503": "The language model (or the embedding model) could not be reached, timed out or is overloaded, or "
    "the database (`MASIS_DATABASE_URL`) is restarting or down. `Retry-After`, when present, "
    "is the wait in seconds before trying again",
}
_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again: the model's (503), a full "
                                "line's or the thread's votes (429), or a few seconds while the database comes back",
                                "schema": {"type": "integer", "minimum": 1}}}


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _json_content(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": _ref(model)}}


def _param(name: str, description: str, pattern: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if pattern:
        schema["pattern"] = pattern
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


WORKSPACE = _param(
    "workspace_id",
    "Any id you choose (1-128 of letters, digits, `._:@-`). A Slack channel's workspace is `<team_id>:<channel_id>`, "
    "so `T1:C1` here is the same workspace, with the same documents, as channel C1 in Slack.",
    WORKSPACE_ID.pattern,
)
THREAD = _param("thread_id", "The `thread_id` of an earlier response.", THREAD_ID.pattern)


def _operation(
    summary: str,
    ok: type[BaseModel],
    errors: tuple[str, ...],
    *,
    params: tuple[dict[str, Any], ...] = (),
    body: dict[str, Any] | None = None,
    description: str = "",
) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": "OK", "content": _json_content(ok)}}
    for code in sorted({"401", *errors, "500", "503"}):  # 503: any route needs the database
        responses[code] = {"description": _ERRORS[code], "content": _json_content(ErrorBody)}
        if code in ("429", "503"):
            responses[code]["headers"] = _RETRY_AFTER
    operation: dict[str, Any] = {"summary": summary, "responses": responses}
    if description:
        operation["description"] = description
    if params:
        operation["parameters"] = list(params)
    if body is not None:
        operation["requestBody"] = {"required": True, "content": body}
    return operation


def openapi_spec() -> dict[str, Any]:
    _, requests = models_json_schema([(m, "validation") for m in _REQUESTS],
                                     ref_template="#/components/schemas/{model}")
    _, responses = models_json_schema([(m, "serialization") for m in _RESPONSES],
                                      ref_template="#/components/schemas/{model}")
    schemas = {**responses.get("$defs", {}), **requests.get("$defs", {})}
    upload = {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "properties": {
                    "file": {"type": "array", "items": {"type": "string", "format": "binary"},
                             "description": "1-10 files: .pdf .docx .pptx .xlsx .md .rst .txt .html .csv, or a "
                                            "configuration file (.conf .cfg .ini .toml .yaml .yml), each up to "
                                            "MASIS_MAX_FILE_BYTES (20 MB). Only the base name is kept."},
                    "uploaded_by": {"type": "string", "description": "Shown in the document list (default `api`)."},
                },
                "required": ["file"],
            }
        }
    }
    paths = {
        "/masis/workspaces/{workspace_id}": {
            "post": _operation(
                "Ask a question",
                ApiOutcome,
                ("400", "409", "413", "422", "429", "502", "503"),
                params=(WORKSPACE,),
                body=_json_content(AskRequest),
                description="Runs the graph (research, cited draft, audit, scoring, retries). `status` is "
                "`success`, or `needs_clarification` with `clarification_question` (reply with "
                "`POST /masis/threads/{thread_id}/reply`); `answer` then holds the unverified best draft.",
            ),
        },
        "/masis/threads/{thread_id}": {
            "get": _operation("A thread and its pending clarification", ThreadState, ("400", "404"),
                              params=(THREAD,)),
        },
        "/masis/threads/{thread_id}/reply": {
            "post": _operation(
                "Reply to a pending clarification",
                ApiOutcome,
                ("400", "404", "409", "413", "422", "429", "502", "503"),
                params=(THREAD,),
                body=_json_content(ReplyRequest),
                description="Resumes the saved graph state, even after a restart. 409 when nothing is pending, "
                "or when the body's optional `round` is not the pending clarification's round (another reply "
                "answered it first); the thread is then unchanged.",
            ),
        },
        "/masis/threads/{thread_id}/feedback": {
            "post": _operation(
                "Rate an answer",
                FeedbackResult,
                ("400", "404", "409", "413", "422", "429"),
                params=(THREAD,),
                body=_json_content(FeedbackRequest),
                description="👍 / 👎 on one answer of the thread (`run`, default the latest), as Slack's "
                "buttons record it: one vote per user per answer. 404 for an unknown thread or answer; 429 past "
                "`MASIS_FEEDBACK_PER_MINUTE` votes on the thread in a minute.",
            ),
        },
        "/masis/workspaces/{workspace_id}/documents": {
            "get": _operation("List a workspace's documents", DocumentList, ("400",), params=(WORKSPACE,)),
            "post": _operation(
                "Upload documents",
                IngestResponse,
                ("400", "413", "415", "422", "429"),
                params=(WORKSPACE,),
                body=upload,
                description="The same ingestion as Slack and the CLI: each file is indexed, `unchanged`, or "
                "`failed` with its reason. A re-upload of a changed file replaces it, whole: until the new "
                "version is complete, questions are answered from the previous one, and a failed replacement "
                "leaves the previous one in place. Uploads and removals of one document name go one at a time "
                "(across replicas too): an upload of a name another request is still writing waits for it, "
                "then replaces what it left, or is `unchanged` when it is the same file. Asks, replies and "
                "uploads wait their workspace's turn for a worker: workspaces take turns, and one workspace "
                "runs at most `MASIS_WORKSPACE_CONCURRENCY` at once.",
            ),
        },
        "/masis/workspaces/{workspace_id}/documents/{name}": {
            "delete": _operation(
                "Remove a document",
                Removed,
                ("400", "404"),
                params=(WORKSPACE, _param("name", "The document's name, URL-encoded.")),
                description="Removes every version of the document. An upload of it still being written "
                "finishes first; the removal then removes what it wrote.",
            ),
        },
        "/readyz": {
            "get": {
                "summary": "Readiness: the store, the checkpointer and the registry answer",
                "security": [],
                "responses": {
                    "200": {"description": "Ready", "content": _json_content(Readiness)},
                    "503": {"description": "A part is not reachable", "content": _json_content(Readiness)},
                },
            }
        },
        "/healthz": {
            "get": {
                "summary": "Liveness: the process is up, or 503 when it cannot recover by itself (restart it)",
                "security": [],
                "responses": {
                    "200": {"description": "Up", "content": {"application/json": {"schema": {"type": "object"}}}},
                    "503": {"description": "The process cannot recover by itself (`problem` says why): for "
                            "example it reaches the database but has lost its replica presence",
                            "content": {"application/json": {"schema": {"type": "object"}}}},
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "MASIS HTTP API",
            "version": "1",
            "description": "Cited, audited answers from a workspace's documents. Every `/masis/...` route "
            "needs `Authorization: Bearer $MASIS_API_TOKEN`; without that variable the API is off (404).",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }


def docs_page(spec: dict[str, Any]) -> str:
    """Every route with its summary, description, parameters and statuses, then the whole spec."""
    e = html.escape
    sections = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            params = "".join(f"<li><code>{e(p['name'])}</code>: {e(p.get('description', ''))}</li>"
                             for p in op.get("parameters", []))
            statuses = ", ".join(f"<code>{e(code)}</code> {e(r['description'])}" for code, r in op["responses"].items())
            auth = "no token" if op.get("security") == [] else "bearer token"
            sections.append(
                f"<section><h2><code>{e(method.upper())} {e(path)}</code></h2><p><b>{e(op['summary'])}</b> "
                f"({auth})</p><p>{e(op.get('description', ''))}</p><ul>{params}</ul><p>{statuses}</p></section>"
            )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>MASIS HTTP API</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "section{border-top:1px solid #ccc}pre{background:#f4f4f4;padding:1em;overflow:auto}</style></head>"
        f"<body><h1>{e(spec['info']['title'])}</h1><p>{e(spec['info']['description'])}</p>"
        "<p>Machine-readable: <a href='/openapi.json'>/openapi.json</a></p>"
        + "".join(sections)
        + f"<h2>Schemas</h2><pre>{e(json.dumps(spec['components']['schemas'], indent=2))}</pre></body></html>"
    )
