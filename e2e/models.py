"""Scripted model servers on loopback, one per host API, for the end-to-end suite.

Owns the four wire protocols the hosts speak — Anthropic Messages with SSE
(Claude Code), the OpenAI Responses API with SSE (Codex, as a custom
provider), Gemini `streamGenerateContent` with SSE (Gemini CLI, via
GOOGLE_GEMINI_BASE_URL) and OpenAI chat completions with SSE (GitHub Copilot
CLI, Qwen Code and Factory droid, each with its own provider settings) —
and turns each request into a neutral `Turn`
(what the conversation's last input is) that a scenario's policy answers
with a `Reply` (a shell command to run, an agent to start, or text). Every
request is recorded for the suite's assertions. The servers answer at once:
the hardest case for a host that writes its transcript late.

A request that carries advisor's review prompt (a reviewer CLI of the
command reviewer sending it on) is answered with `REVIEW_ANSWER`, a notes
object whose note carries `PRESET_MARKER`, whatever the policy (or by the
scenario's `review_policy`, given the turn and the server's URL); such
requests are kept apart (`review_texts`), with the names of the tools each
one offered the model (`review_tools`, from `tool_names`).

Must not decide what a scenario expects: `scenarios.py` does. Serves only
127.0.0.1; every request body is bounded.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Optional

MAX_BODY = 32 << 20
# the first words of advisor's review prompts: the full review (crates/advisor/src/review/prompt.rs) and the
# judge's, which `scope = "claims"`, the default, sends on contested stops (crates/advisor/src/review/judge_prompt.rs)
REVIEW_PHRASES = ("You review the work of an AI agent.", "You judge one answer of an AI agent.")
PRESET_MARKER = "PRESET-NOTE-5e1d"
# the blocker quotes the scripted pytest's summary line (suite.py), which both prompts show: anchored, it re-opens
REVIEW_ANSWER = json.dumps({"notes": [{"text": f"{PRESET_MARKER}: the answer says all tests pass, but `pytest -q` "
                                               "failed (test_calc.py::test_add).", "severity": "blocker",
                                       "evidence": "1 failed in 0.02s"}]})


@dataclass
class Turn:
    """What the model is asked to answer, in host-neutral terms."""

    prompt: str  # the conversation's first genuine user text
    last: str  # "start", "tool" (a tool result came back) or "advisory" (a stop hook sent it back)
    advisories: int  # how many times a stop hook sent this conversation back
    tool_output: str = ""  # the last tool result's text
    tools: int = 0  # tool results in the conversation so far


@dataclass
class Reply:
    """What the scripted model says: text, a shell command, or a sub-agent."""

    text: str = ""
    command: Optional[str] = None
    agent: Optional[str] = None  # Claude Code: start a sub-agent with this prompt


ADVISORY_MARKERS = ("advisory severity=", "Stop hook feedback", "<hook_prompt", "Agent execution blocked")


def _is_advisory(text: str) -> bool:
    return any(m in text for m in ADVISORY_MARKERS)


@dataclass
class Server:
    """One scripted server: `policy` answers turns; `requests` records them."""

    kind: str  # "anthropic", "openai", "gemini" or "chat"
    policy: Callable[[Turn], Reply]
    requests: list = field(default_factory=list)
    httpd: Optional[ThreadingHTTPServer] = None
    counter: int = 0
    review_policy: Optional[Callable[[Turn, str], Reply]] = None  # answers review requests, else REVIEW_ANSWER
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> "Server":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                body = b"{}"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(min(n, MAX_BODY))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                with server.lock:
                    server.requests.append({"path": self.path, "body": body})
                    server.counter += 1
                    n = server.counter
                status, headers, payload = server.answer(self.path, body, n)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self):
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()

    def reset(self, policy: Callable[[Turn], Reply], review_policy=None):
        with self.lock:
            self.policy = policy
            self.review_policy = review_policy
            self.requests = []

    def answer(self, path: str, body: dict, n: int):
        policy = self.policy
        if is_review(body):
            rp, url = self.review_policy, self.url
            policy = (lambda t: rp(t, url)) if rp else (lambda _t: Reply(text=REVIEW_ANSWER))  # noqa: E731
        if self.kind == "anthropic":
            return anthropic(policy, body, n)
        if self.kind == "openai":
            return openai(policy, body, n)
        if self.kind == "chat":
            return chat(policy, body, n)
        return gemini(policy, path, body, n)

    def texts(self) -> str:
        """Every request body of the agents' own conversations as text, for 'did the advisory
        reach the model'."""
        return "\n".join(json.dumps(r["body"]) for r in self.requests if not is_review(r["body"]))

    def review_texts(self) -> list:
        """Each review request (a reviewer CLI sending advisor's review prompt on), as text."""
        return [json.dumps(r["body"]) for r in self.requests if is_review(r["body"])]

    def review_tools(self) -> list:
        """The tool names each review request offered its model (`tool_names`), one list per request."""
        return [tool_names(self.kind, r["body"]) for r in self.requests if is_review(r["body"])]


def is_review(body: dict) -> bool:
    text = json.dumps(body)
    return any(p in text for p in REVIEW_PHRASES)


def tool_names(kind: str, body: dict) -> list:
    """The names of the tools a request declares to the model: Anthropic `tools[].name` (a server
    tool by its `name`, else its `type`), Responses API `tools[]` (`name`, else `type`, e.g.
    `web_search`; a namespace's own tools as `namespace.tool`), Gemini `tools[].functionDeclarations[].name`
    plus any other key of a `tools[]` entry (a built-in such as `googleSearch` or `urlContext`)."""
    out = []
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if kind == "gemini":
            for k, v in t.items():
                if k == "functionDeclarations":
                    out += [d.get("name", "?") for d in v or [] if isinstance(d, dict)]
                else:
                    out.append(k)
        elif kind == "chat":
            out.append((t.get("function") or {}).get("name") or t.get("type", "?"))
        elif kind == "openai" and isinstance(t.get("tools"), list):
            ns = t.get("name") or t.get("type", "?")
            out += [f"{ns}.{x.get('name') or x.get('type', '?')}" for x in t["tools"] if isinstance(x, dict)]
        else:
            out.append(t.get("name") or t.get("type", "?"))
    return out


def _sse(events, named: bool) -> tuple:
    out = []
    for ev in events:
        data = json.dumps(ev)
        out.append((f"event: {ev['type']}\n" if named else "") + f"data: {data}\n\n")
    return 200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}, "".join(out).encode()


# ---------------------------------------------------------------- Anthropic


def _anthropic_turn(body: dict) -> Optional[Turn]:
    msgs = body.get("messages") or []
    if not body.get("tools") or not msgs:
        return None
    prompt, advisories, last, out, tools = "", 0, "start", "", 0
    for m in msgs:
        if m.get("role") != "user":
            continue
        content = m.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else (content or [])
        kinds = []
        for b in blocks:
            if b.get("type") == "tool_result":
                kinds.append("tool")
                tools += 1
                c = b.get("content")
                out = c if isinstance(c, str) else " ".join(x.get("text", "") for x in (c or []) if isinstance(x, dict))
            elif b.get("type") == "text":
                t = b.get("text", "")
                if _is_advisory(t):
                    kinds.append("advisory")
                    advisories += 1
                elif not prompt and not t.lstrip().startswith("<"):
                    prompt = t
        if kinds:
            last = "advisory" if "advisory" in kinds else "tool"
        elif m is msgs[-1]:
            last = "start"
    return Turn(prompt=prompt, last=last, advisories=advisories, tool_output=out, tools=tools)


def anthropic(policy, body: dict, n: int):
    turn = _anthropic_turn(body)
    reply = policy(turn) if turn or is_review(body) else Reply(text="ok")
    model = body.get("model", "claude-scripted")
    start = {"type": "message_start", "message": {"id": f"msg_{n}", "type": "message", "role": "assistant",
             "model": model, "content": [], "stop_reason": None, "stop_sequence": None,
             "usage": {"input_tokens": 10, "output_tokens": 1}}}
    if reply.command or reply.agent:
        if reply.command:
            name, args = "Bash", {"command": reply.command, "description": "Run the tests"}
        else:
            name, args = "Agent", {"description": "Run the tests", "prompt": reply.agent,
                                   "subagent_type": "general-purpose"}
        blocks = [
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "tool_use", "id": f"toolu_{n:04d}", "name": name, "input": {}}},
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "input_json_delta", "partial_json": json.dumps(args)}},
            {"type": "content_block_stop", "index": 0},
        ]
        stop = "tool_use"
    else:
        blocks = [
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": reply.text}},
            {"type": "content_block_stop", "index": 0},
        ]
        stop = "end_turn"
    if not body.get("stream"):
        content = ([{"type": "text", "text": reply.text}] if stop == "end_turn" else [])
        msg = dict(start["message"], content=content, stop_reason=stop)
        data = json.dumps(msg).encode()
        return 200, {"Content-Type": "application/json"}, data
    tail = [{"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
             "usage": {"output_tokens": 5}}, {"type": "message_stop"}]
    return _sse([start, *blocks, *tail], named=True)


# ---------------------------------------------------------------- OpenAI Responses (Codex)


def _openai_turn(body: dict) -> Turn:
    prompt, advisories, last, out = "", 0, "start", ""
    for item in body.get("input") or []:
        ty = item.get("type")
        if ty in ("function_call_output", "custom_tool_call_output"):
            last = "tool"
            o = item.get("output")
            out = o if isinstance(o, str) else json.dumps(o)
        elif ty == "message" and item.get("role") == "user":
            text = " ".join(c.get("text", "") for c in item.get("content") or [] if isinstance(c, dict))
            if _is_advisory(text):
                advisories += 1
                last = "advisory"
            elif not text.lstrip().startswith("<") and not text.lstrip().startswith("#"):
                prompt = prompt or text
                last = "start"
    return Turn(prompt=prompt, last=last, advisories=advisories, tool_output=out)


def openai(policy, body: dict, n: int):
    reply = policy(_openai_turn(body))
    if reply.command:
        item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": "exec_command",
                "arguments": json.dumps({"cmd": reply.command})}
    else:
        item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}]}
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    events = [
        {"type": "response.created", "response": {"id": f"resp_{n}"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}},
    ]
    return _sse(events, named=True)


# ---------------------------------------------------------------- Gemini


def _gemini_turn(body: dict) -> Turn:
    prompt, advisories, last, out = "", 0, "start", ""
    for c in body.get("contents") or []:
        if c.get("role") != "user":
            continue
        for p in c.get("parts") or []:
            if "functionResponse" in p:
                last = "tool"
                out = json.dumps(p["functionResponse"].get("response"))
            elif "text" in p:
                t = p["text"]
                if _is_advisory(t):
                    advisories += 1
                    last = "advisory"
                elif not t.lstrip().startswith("<"):
                    if not prompt:
                        prompt = t
                    last = "start"
    return Turn(prompt=prompt, last=last, advisories=advisories, tool_output=out)


def gemini(policy, path: str, body: dict, n: int):
    usage = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
    if ":streamGenerateContent" not in path:
        # the CLI's own side calls (routing classifier, next-speaker check): a JSON text
        text = json.dumps({"reasoning": "scripted", "model_choice": "flash", "next_speaker": "user"})
        data = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP",
                                "index": 0}], "usageMetadata": usage}
        return 200, {"Content-Type": "application/json"}, json.dumps(data).encode()
    reply = policy(_gemini_turn(body))
    if reply.command:
        part = {"functionCall": {"name": "run_shell_command", "args": {"command": reply.command}}}
    else:
        part = {"text": reply.text}
    chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
             "usageMetadata": usage, "modelVersion": "gemini-2.5-flash"}
    return 200, {"Content-Type": "text/event-stream"}, f"data: {json.dumps(chunk)}\r\n\r\n".encode()


# ---------------------------------------------------------------- OpenAI chat completions (Copilot CLI, Qwen Code, droid)

# each host's shell tool and sub-agent tool, by the names it offers the model
SHELL_TOOLS = ("bash", "run_shell_command", "Execute")
AGENT_TOOLS = ("task", "agent", "Task")


def _chat_texts(content) -> list:
    """The text parts of a chat message, Copilot CLI's `<current_datetime>` prefix left out."""
    parts = [content] if isinstance(content, str) else [
        c.get("text", "") for c in content or [] if isinstance(c, dict) and c.get("type", "text") == "text"]
    out = []
    for p in parts:
        p = p or ""
        if p.lstrip().startswith("<current_datetime>") and "</current_datetime>" in p:
            p = p.split("</current_datetime>", 1)[1]
        out.append(p.strip())
    return out


def _chat_turn(body: dict) -> Optional[Turn]:
    msgs = body.get("messages") or []
    if not body.get("tools") or not msgs:
        return None
    prompt, advisories, last, out, tools = "", 0, "start", "", 0
    for m in msgs:
        role = m.get("role")
        if role == "tool":
            last, tools = "tool", tools + 1
            out = " ".join(_chat_texts(m.get("content")))
        elif role == "user":
            texts = _chat_texts(m.get("content"))
            if any(_is_advisory(t) for t in texts):
                advisories += 1
                last = "advisory"
                continue
            for t in texts:
                if t and not t.startswith("<") and not prompt:
                    prompt = t
            last = "start" if last != "tool" else last
    return Turn(prompt=prompt, last=last, advisories=advisories, tool_output=out, tools=tools)


def _offered(body: dict, names) -> tuple:
    """The first of `names` the request offers, with its parameter schema."""
    for want in names:
        for t in body.get("tools") or []:
            f = t.get("function") or {}
            if f.get("name") == want:
                return want, f.get("parameters") or {}
    return None, {}


def _arguments(params: dict, value: str) -> dict:
    """Arguments for a tool from its schema: `value` as the command or prompt, every other required
    property a plain value of its type (a sub-agent of the general-purpose type, in the foreground)."""
    props = params.get("properties") or {}
    args = {k: value for k in props if k in ("command", "prompt")}
    for k in list(props) + list(params.get("required") or []):
        if k in args:
            continue
        p = props.get(k) or {}
        if k in ("description", "summary", "title", "name"):
            args[k] = "Run the tests"
        elif k in ("subagent_type", "agent_type", "subagentType"):
            args[k] = "general-purpose"
        elif k == "run_in_background":
            args[k] = False
        elif k == "await":
            args[k] = True
        elif k in (params.get("required") or []):
            ty = p.get("type")
            args[k] = (p["enum"][0] if "enum" in p else False if ty == "boolean" else 60 if ty in ("integer", "number")
                       else [] if ty == "array" else {} if ty == "object" else value)
    return args


def _chunk(n: int, model: str, delta: dict, finish=None) -> dict:
    return {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def chat(policy, body: dict, n: int):
    turn = _chat_turn(body)
    reply = policy(turn) if turn or is_review(body) else Reply(text="ok")
    model = body.get("model") or "scripted"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    call = None
    if reply.command or reply.agent:
        name, params = _offered(body, SHELL_TOOLS if reply.command else AGENT_TOOLS)
        if name is None:
            reply = Reply(text=f"no {'shell' if reply.command else 'sub-agent'} tool was offered")
        else:
            args = _arguments(params, reply.command or reply.agent)
            call = {"id": f"call_{n:04d}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
    if not body.get("stream"):
        msg = {"role": "assistant", "content": None, "tool_calls": [call]} if call else {"role": "assistant",
                                                                                      "content": reply.text}
        data = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if call else "stop"}],
                "usage": usage}
        return 200, {"Content-Type": "application/json"}, json.dumps(data).encode()
    events = [_chunk(n, model, {"role": "assistant", "content": ""})]
    if call:
        events.append(_chunk(n, model, {"tool_calls": [dict(call, index=0, function={"name": call["function"]["name"],
                                                                                      "arguments": ""})]}))
        events.append(_chunk(n, model, {"tool_calls": [{"index": 0, "function": {
            "arguments": call["function"]["arguments"]}}]}))
    else:
        events.append(_chunk(n, model, {"content": reply.text}))
    events.append(_chunk(n, model, {}, "tool_calls" if call else "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append(dict(_chunk(n, model, {}), choices=[], usage=usage))
    payload = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    return 200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}, payload.encode()
