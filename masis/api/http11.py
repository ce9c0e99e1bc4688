"""uvicorn's HTTP/1.1 protocol with its one plain-text answer made JSON: a request uvicorn cannot parse (a
malformed Content-Length, a broken request line) never reaches the app, and uvicorn answers it itself with
`400 Invalid HTTP request received.` as text. Every other error of the server is `{"error", "detail"}`."""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class JsonErrorH11Protocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        body = json.dumps({
            "error": "The request is not valid HTTP/1.1 (a malformed request line or header, such as "
                     "Content-Length); nothing was done.",
            "detail": msg,
        }).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()
