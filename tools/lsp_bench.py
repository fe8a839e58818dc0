#!/usr/bin/env python3
"""Latency benchmark of puppet-ls through the LSP, like an editor drives it.

usage: tools/lsp_bench.py SERVER ROOT FILE [N]

Starts SERVER over stdio with the workspace ROOT, opens FILE and measures:
start-up to the file's first diagnostics, keystroke to diagnostics (N
single-character edits, each waited for: the first push, and the last one
for that version, which is the full analysis), the first hover after an
edit, and hover, completion and definition latency at N positions on
variables of the file; workspace symbol search with N queries (prefixes of
names in the file, as typed), and after each of N edits to the file (the
index is updated for the changed file before the answer); then the
server's peak resident memory (VmHWM) and what it holds at the end (VmRSS).
Prints one JSON object.
"""
import json, os, random, re, subprocess, sys, threading, time, queue
from urllib.parse import quote

def uri(path):
    return "file://" + quote(os.path.abspath(path))

class Client:
    def __init__(self, cmd, cwd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=cwd)
        self.q = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self.reader, daemon=True).start()

    def reader(self):
        f = self.p.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = f.read(1)
                if not c:
                    return
                header += c
            n = int(re.search(rb"Content-Length: (\d+)", header).group(1))
            self.q.put(json.loads(f.read(n)))

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            try:
                m = self.q.get(timeout=max(0.0, end - time.time()))
            except queue.Empty:
                break
            if "method" in m and "id" in m:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
                continue
            if pred(m):
                return m
        raise TimeoutError("no answer")

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == i and "method" not in m)

def pct(xs, p):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * p / 100))], 2)

def main():
    server, root, path = sys.argv[1], sys.argv[2], sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    t0 = time.time()
    c = Client([server], root)
    c.request("initialize", {"processId": os.getpid(), "rootUri": uri(root),
                             "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                                              "window": {"workDoneProgress": True}}})
    c.notify("initialized", {})
    u = uri(path)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "puppet", "version": 1, "text": text}})
    # Start-up ends with the file's diagnostics after the whole workspace is
    # indexed (the end of the server's progress report).
    c.wait(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "end", 300)
    c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u, 300)
    startup = (time.time() - t0) * 1000
    rnd = random.Random(7)
    spots = [(i, m.start() + 1) for i, l in enumerate(lines) for m in re.finditer(r"\$[a-z_]\w*", l)]
    rnd.shuffle(spots)
    spots = spots[:n] or [(0, 0)]
    keystroke = []
    full = []
    version = 1
    for k in range(n):
        line, col = spots[k % len(spots)]
        version += 1
        if k % 2 == 0:
            change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}, "text": "x"}
        else:
            change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ""}
        t = time.time()
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": [change]})
        is_ours = lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version
        c.wait(is_ours)
        keystroke.append((time.time() - t) * 1000)
        # The server may push a quick syntax pass first: the full analysis
        # is the last push for this version (none more within 300 ms).
        last = time.time()
        while True:
            try:
                c.wait(is_ours, timeout=0.3)
                last = time.time()
            except TimeoutError:
                break
        full.append((last - t) * 1000)
    results = {}
    # The first hover after an edit (inference runs again for the file).
    after_edit = []
    for line, col in spots[: max(1, n // 2)]:
        version += 1
        change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "" if version % 2 else " "}
        if version % 2:
            change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": ""}
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": [change]})
        shift = 0 if version % 2 else (1 if line == 0 else 0)
        t = time.time()
        c.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": line, "character": col + shift}})
        after_edit.append((time.time() - t) * 1000)
    results["hover_after_edit"] = {"p50_ms": pct(after_edit, 50), "p95_ms": pct(after_edit, 95)}
    for method in ["textDocument/hover", "textDocument/completion", "textDocument/definition"]:
        times = []
        for line, col in spots:
            params = {"textDocument": {"uri": u}, "position": {"line": line, "character": col}}
            t = time.time()
            c.request(method, params)
            times.append((time.time() - t) * 1000)
        results[method.split("/")[1]] = {"p50_ms": pct(times, 50), "p95_ms": pct(times, 95)}
    # Workspace symbols: queries as a user types them (growing prefixes of
    # names in the file), then one after each edit of the file.
    words = sorted(set(re.findall(r"[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*", text)))
    rnd.shuffle(words)
    queries = [w[: 1 + k % len(w)] for k, w in enumerate((words or ["a"]) * n)][:n]
    times = []
    for q in queries:
        t = time.time()
        c.request("workspace/symbol", {"query": q})
        times.append((time.time() - t) * 1000)
    results["workspace_symbol"] = {"p50_ms": pct(times, 50), "p95_ms": pct(times, 95)}
    times = []
    for k, q in enumerate(queries):
        version += 1
        edit = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": " "}
        if k % 2:
            edit = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": ""}
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version}, "contentChanges": [edit]})
        t = time.time()
        c.request("workspace/symbol", {"query": q})
        times.append((time.time() - t) * 1000)
    results["workspace_symbol_after_edit"] = {"p50_ms": pct(times, 50), "p95_ms": pct(times, 95)}
    hwm = rss = 0
    with open(f"/proc/{c.p.pid}/status") as f:
        for l in f:
            if l.startswith("VmHWM"):
                hwm = int(l.split()[1]) // 1024
            if l.startswith("VmRSS"):
                rss = int(l.split()[1]) // 1024
    c.request("shutdown", None)
    c.notify("exit", None)
    print(json.dumps({"file": path, "lines": len(lines), "startup_to_diagnostics_ms": round(startup, 1),
                      "keystroke_to_first_diagnostics": {"p50_ms": pct(keystroke, 50), "p95_ms": pct(keystroke, 95)},
                      "keystroke_to_full_diagnostics": {"p50_ms": pct(full, 50), "p95_ms": pct(full, 95)},
                      **results, "peak_rss_mib": hwm, "rss_at_end_mib": rss}, indent=1))

if __name__ == "__main__":
    main()
