#!/usr/bin/env python3
"""Runs `advisor hook` with each command-reviewer preset against the real agent CLI,
pointed at a scripted model server on 127.0.0.1 (issue 28, item 1 and 3).

Usage: PATH=<dir with claude/codex/gemini>:$PATH python3 scripts/verify-presets.py ADVISOR_BIN [claude|codex|gemini ...]
       python3 scripts/verify-presets.py --serve SECONDS   (the scripted server alone, for `advisor eval --config`)

For each preset: a scratch HOME and workspace, a user config with
`[reviewer] kind = "command"`, `preset = NAME`, the CLI's endpoint pointed at the
scripted server, which answers every model call with a notes object carrying a
marker. The preset passes when the hook blocks with that marker (the note came
from the CLI's answer). Reports the wall time per review and the time the server
spent answering, so the CLI's start-up overhead is their difference. Derived:
the server and its answers are written here; the CLIs are the real packages.
"""
import http.server, json, os, shutil, subprocess, sys, tempfile, threading, time

NOTE = "PRESET_NOTE the answer claims tests pass but the transcript shows none ran."
ANSWER = json.dumps({"notes": [{"text": NOTE, "severity": "blocker"}]})
LOG = []


def sse(events):
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self):
        self.do_HEAD()

    def send(self, body, ctype):
        self.send_response(200)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        t0 = time.monotonic()
        n = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        path = self.path
        if path.startswith("/v1/messages"):
            usage = {"input_tokens": 1000, "output_tokens": 40}
            events = [
                ("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"), "content": [], "stop_reason": None, "usage": {"input_tokens": 1000, "output_tokens": 1}}}),
                ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": ANSWER}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 40}}),
                ("message_stop", {"type": "message_stop"}),
            ]
            if body.get("stream"):
                self.send(sse(events), "text/event-stream")
            else:
                self.send(json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "content": [{"type": "text", "text": ANSWER}], "stop_reason": "end_turn", "usage": usage}).encode(), "application/json")
        elif path.startswith("/v1/responses"):
            item = {"type": "message", "id": "m1", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": ANSWER, "annotations": []}]}
            resp = {"id": "r1", "object": "response", "status": "completed", "output": [item], "usage": {"input_tokens": 1000, "output_tokens": 40, "total_tokens": 1040}}
            events = [
                ("response.created", {"type": "response.created", "response": {**resp, "status": "in_progress", "output": []}}),
                ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {**item, "content": [], "status": "in_progress"}}),
                ("response.output_text.delta", {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": "m1", "delta": ANSWER}),
                ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
                ("response.completed", {"type": "response.completed", "response": resp}),
            ]
            self.send(sse(events), "text/event-stream")
        elif path.startswith("/v1/chat/completions"):
            self.send(json.dumps({"choices": [{"message": {"role": "assistant", "content": ANSWER}, "finish_reason": "stop"}],
                                  "usage": {"prompt_tokens": 1000, "completion_tokens": 40}}).encode(), "application/json")
        elif "generateContent" in path or "streamGenerateContent" in path:
            text = ANSWER
            if "flash-lite" in path:  # the CLI's routing classifier
                text = json.dumps({"reasoning": "simple", "model_choice": "flash"})
            chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
                     "usageMetadata": {"promptTokenCount": 1000, "candidatesTokenCount": 40, "totalTokenCount": 1040}}
            if "alt=sse" in path:
                self.send(f"data: {json.dumps(chunk)}\n\n".encode(), "text/event-stream")
            else:
                self.send(json.dumps(chunk).encode(), "application/json")
        else:
            self.send(b"{}", "application/json")
        LOG.append((path.split("?")[0], time.monotonic() - t0))


def run(advisor, preset, port, runs=3):
    base = tempfile.mkdtemp(prefix=f"advisor-preset-{preset}-")
    home, ws = os.path.join(base, "home"), os.path.join(base, "ws")
    os.makedirs(os.path.join(home, ".config/advisor"))
    os.makedirs(os.path.join(ws, ".advisor"))
    with open(os.path.join(ws, ".advisor/config.toml"), "w") as f:
        f.write("timeout_secs = 120\n")
    with open(os.path.join(home, ".config/advisor/config.toml"), "w") as f:
        f.write(f'[reviewer]\nkind = "command"\npreset = "{preset}"\n\n[workspaces."{os.path.realpath(ws)}"]\nopt_in = true\n')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    transcript = os.path.join(root, "examples/transcripts/claude-failing-tests.jsonl")
    env = {"PATH": os.environ["PATH"], "HOME": home, "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_ERROR_REPORTING": "1",
           "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "sk-scripted",
           "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}", "GEMINI_API_KEY": "scripted",
           "CODEX_HOME": os.path.join(home, ".codex"), "SCRIPTED_KEY": "scripted"}
    if preset == "codex":
        os.makedirs(env["CODEX_HOME"])
        with open(os.path.join(env["CODEX_HOME"], "config.toml"), "w") as f:
            f.write(f'model = "scripted"\nmodel_provider = "scripted"\n[model_providers.scripted]\nname = "scripted"\n'
                    f'base_url = "http://127.0.0.1:{port}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_KEY"\n')
    if preset == "gemini":
        os.makedirs(os.path.join(home, ".gemini"))
        with open(os.path.join(home, ".gemini/settings.json"), "w") as f:
            json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}}}, f)
    results = []
    for i in range(runs):
        LOG.clear()
        hook_input = json.dumps({"session_id": f"s{i}", "transcript_path": transcript, "cwd": ws,
                                 "hook_event_name": "Stop", "stop_hook_active": False})
        t0 = time.monotonic()
        p = subprocess.run([advisor, "hook"], input=hook_input, capture_output=True, text=True, env=env, timeout=300)
        wall = time.monotonic() - t0
        blocked = "PRESET_NOTE" in p.stdout and '"block"' in p.stdout
        server = sum(t for _, t in LOG)
        results.append({"run": i, "blocked_with_cli_note": blocked, "wall_s": round(wall, 3),
                        "server_s": round(server, 4), "calls": [c for c, _ in LOG],
                        "stderr": p.stderr.strip()[-400:]})
    shutil.rmtree(base, ignore_errors=True)
    return results


def serve(seconds):
    """`--serve SECONDS`: only the scripted server, on a free port it prints, for SECONDS at most."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    time.sleep(seconds)
    server.shutdown()


def main():
    if sys.argv[1] == "--serve":
        return serve(float(sys.argv[2]))
    advisor = os.path.abspath(sys.argv[1])
    presets = sys.argv[2:] or ["claude", "codex", "gemini"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ok = True
    for preset in presets:
        for r in run(advisor, preset, server.server_address[1]):
            print(json.dumps({"preset": preset, **r}))
            ok &= r["blocked_with_cli_note"]
    server.shutdown()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
