#!/usr/bin/env python3
"""A scripted model server on loopback, for the tests of agent=llm.

    llm-server.py SCRIPT [--log FILE] [--port-file FILE] [--stats FILE]
                  -- COMMAND...

Serves POST /v1/chat/completions (OpenAI) and /v1/messages (Anthropic) on
127.0.0.1 at a free port the system picks, runs COMMAND with every `@URL@`
replaced by the server's root URL, stops the server and exits with
COMMAND's status. The port is also written to --port-file.

SCRIPT is a JSON file, or JSON text itself when it starts with `{`: {"replies": [REPLY, ...], "then": "repeat" | "gone"}. Each
request takes the next REPLY (after the last: the last again with "repeat",
else 410 Gone):
  {"content": "text"}            200 in the requested wire format
  {"content_file": "path"}       the same, text read relative to SCRIPT
  {"fence": "mlir"}              the text in a fenced block of that language
  {"finish": "length"}           finish/stop reason (default: a normal stop)
  {"usage": [prompt, completion]} token counts (default [100, 50])
  {"status": 429, "headers": {"Retry-After": "1"}, "body": "..."}
  {"delay": 3}                   seconds to wait before answering
  {"body": "raw"}                the body as is (e.g. garbage, or "")
--log gets one JSON line per request: the path, the key headers and the
request body, so tests can check what was sent. --stats gets, once COMMAND
ended, {"requests", "max_in_flight", "span_s"}: how many requests came, the
most that were being answered at once, and the seconds from the first
request's arrival to the last reply.
"""

import http.server
import json
import os
import subprocess
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit("usage: llm-server.py SCRIPT [--log F] [--port-file F] "
                 "[--stats F] -- CMD")
    split = args.index("--")
    options, command = args[:split], args[split + 1:]
    script_path = options[0]
    log_path = port_path = stats_path = None
    i = 1
    while i < len(options):
        if options[i] == "--log":
            log_path = options[i + 1]
        elif options[i] == "--port-file":
            port_path = options[i + 1]
        elif options[i] == "--stats":
            stats_path = options[i + 1]
        else:
            sys.exit("llm-server.py: unknown option " + options[i])
        i += 2
    if script_path.lstrip().startswith("{"):
        script = json.loads(script_path)
        script_path = os.path.join(os.getcwd(), "inline.json")
    else:
        with open(script_path) as f:
            script = json.load(f)
    queues = script.get("roles", {"any": script.get("replies", [])})
    then = script.get("then", "gone")
    base = os.path.dirname(os.path.abspath(script_path))
    counts = {}
    lock = threading.Lock()
    stats = {"requests": 0, "in_flight": 0, "max_in_flight": 0,
             "first": None, "last": None}
    if log_path:
        open(log_path, "w").close()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *unused):
            pass

        def done(self):
            # A request stops counting as in flight before its reply is
            # written: once the client has the reply it may send the next
            # one, possibly before this thread is scheduled again.
            with lock:
                if getattr(self, "counted", False):
                    self.counted = False
                    stats["in_flight"] -= 1
                stats["last"] = time.time()

        def send(self, status, body, headers=None):
            data = body.encode()
            self.done()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def do_POST(self):
            with lock:
                stats["requests"] += 1
                stats["in_flight"] += 1
                stats["max_in_flight"] = max(stats["max_in_flight"],
                                             stats["in_flight"])
                if stats["first"] is None:
                    stats["first"] = time.time()
                self.counted = True
            try:
                self.answer()
            finally:
                self.done()

        def answer(self):
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length).decode()
            anthropic = self.path.endswith("/v1/messages")
            try:
                request = json.loads(raw)
            except ValueError:
                request = raw
            role = "any"
            if "any" not in queues and isinstance(request, dict):
                system = request.get("system") or ""
                for m in request.get("messages", []):
                    if m.get("role") == "system":
                        system = m.get("content", "")
                for name in queues:
                    if system.startswith("You are the " + name):
                        role = name
            replies = queues.get(role, [])
            with lock:
                index = counts.get(role, 0)
                counts[role] = index + 1
                if log_path:
                    entry = {"index": index, "role": role, "path": self.path,
                             "authorization": self.headers.get("Authorization"),
                             "x-api-key": self.headers.get("x-api-key"),
                             "anthropic-version":
                                 self.headers.get("anthropic-version"),
                             "time": time.time(), "request": request}
                    with open(log_path, "a") as f:
                        f.write(json.dumps(entry) + "\n")
            if index >= len(replies):
                if then != "repeat" or not replies:  # per role
                    self.send(410, json.dumps(
                        {"error": {"message": "the script has no reply %d" %
                                   index}}))
                    return
                index = len(replies) - 1
            reply = replies[index]
            time.sleep(reply.get("delay", 0))
            status = reply.get("status", 200)
            if "body" in reply:
                body = reply["body"]
            elif status != 200:
                body = json.dumps({"error": {"message": reply.get(
                    "message", "scripted status %d" % status)}})
            else:
                text = reply.get("content", "")
                if "content_file" in reply:
                    with open(os.path.join(base, reply["content_file"])) as f:
                        text = f.read()
                if "fence" in reply:
                    text = "```%s\n%s```\n" % (reply["fence"], text)
                usage = reply.get("usage", [100, 50])
                if anthropic:
                    body = json.dumps({
                        "type": "message", "role": "assistant",
                        "content": [{"type": "text", "text": text}],
                        "stop_reason": reply.get("finish", "end_turn"),
                        "usage": {"input_tokens": usage[0],
                                  "output_tokens": usage[1]}})
                else:
                    body = json.dumps({
                        "object": "chat.completion",
                        "choices": [{"index": 0, "message": {
                            "role": "assistant", "content": text},
                            "finish_reason": reply.get("finish", "stop")}],
                        "usage": {"prompt_tokens": usage[0],
                                  "completion_tokens": usage[1]}})
            self.send(status, body, reply.get("headers"))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    if port_path:
        with open(port_path, "w") as f:
            f.write(str(port))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = "http://127.0.0.1:%d" % port
    try:
        rc = subprocess.call([a.replace("@URL@", url) for a in command])
    finally:
        server.shutdown()
        server.server_close()
    if stats_path:
        with lock:
            span = (stats["last"] - stats["first"]
                    if stats["first"] is not None else 0)
            with open(stats_path, "w") as f:
                json.dump({"requests": stats["requests"],
                           "max_in_flight": stats["max_in_flight"],
                           "span_s": round(span, 3)}, f)
    sys.exit(rc)


if __name__ == "__main__":
    main()
