"""A local mock of an OpenAI-compatible chat endpoint, for tests, examples and
benchmarks (Python standard library only).

``MockOpenAIServer(respond)`` serves ``POST /v1/chat/completions`` on
127.0.0.1 (a free port) from a background thread. ``respond(request)`` gets
the request body (a dict with ``messages``) and returns either the assistant
message's text, or ``(status, body_text)`` to answer with an HTTP error. It
never reaches the network beyond loopback.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Tuple, Union

Answer = Union[str, Tuple[int, str]]

#: A valid decision that lets the draft through.
CONTINUE = json.dumps(
    {
        "intervene": False,
        "confidence": 0.9,
        "reason_code": "COMPLETE",
        "action": "CONTINUE",
        "plan": "1. the task (done)",
        "hint": "",
        "private_diagnosis": "fine",
    }
)


def decision(action: str, reason_code: str = "OTHER", plan: str = "1. the task", hint: str = "") -> str:
    """A valid decision with ``action`` (``intervene`` follows from it)."""
    return json.dumps(
        {
            "intervene": action != "CONTINUE",
            "confidence": 0.7,
            "reason_code": "COMPLETE" if action == "CONTINUE" else reason_code,
            "action": action,
            "plan": plan,
            "hint": hint,
            "private_diagnosis": "mock",
        }
    )


def user_prompt(request: Dict[str, Any]) -> str:
    """The text of the last user message of a chat request."""
    msgs: List[Dict[str, Any]] = request.get("messages", [])
    for m in reversed(msgs):
        content = m.get("content")
        if m.get("role") == "user" and isinstance(content, str):
            return content
    return ""


class MockOpenAIServer:
    """A loopback OpenAI-compatible server answering with ``respond(request)``.

    Use as a context manager; ``base_url`` is ``http://127.0.0.1:<port>/v1``
    and ``requests`` counts the chat requests served.
    """

    def __init__(self, respond: Callable[[Dict[str, Any]], Answer] = lambda _r: CONTINUE) -> None:
        self.respond = respond
        self.requests = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real endpoints do
            # One write per response and no Nagle delay: headers and body in
            # separate segments would meet the client's delayed ACK (~40 ms).
            wbufsize = 1 << 16
            disable_nagle_algorithm = True

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(min(length, 16 << 20)) or b"{}")
                with server._lock:
                    server.requests += 1
                answer = server.respond(body)
                if isinstance(answer, tuple):
                    status, text = answer
                    payload = text.encode()
                else:
                    status = 200
                    payload = json.dumps(
                        {
                            "id": "mock",
                            "object": "chat.completion",
                            "model": body.get("model", "mock"),
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": answer},
                                    "finish_reason": "stop",
                                }
                            ],
                            "usage": {"prompt_tokens": 900, "completion_tokens": 40},
                        }
                    ).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *_args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        port = self._httpd.server_address[1]
        return f"http://127.0.0.1:{port}/v1"

    def start(self) -> "MockOpenAIServer":
        """Starts serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stops serving and closes the socket."""
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "MockOpenAIServer":
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.stop()


if __name__ == "__main__":
    # `python -m advisor.testing`: serve CONTINUE decisions until killed; prints the base URL.
    import sys
    import time

    with MockOpenAIServer() as _server:
        print(_server.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            sys.exit(0)
