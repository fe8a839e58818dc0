#!/usr/bin/env python3
"""A scripted stand-in for puppet-ls, for checking the Neovim test harness itself.

It speaks just enough LSP over stdio to answer what test/lsp_test.lua asks, with canned
answers about the fixture. STAND_IN_MODE=wrong gives wrong answers, so that run.sh can be
shown to fail. It checks nothing about puppet-ls: run.sh with the real binary does that.
"""
import json
import os
import sys

WRONG = os.environ.get("STAND_IN_MODE") == "wrong"


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def send(stream, message):
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    if sys.argv[1:2] != ["lsp"]:
        sys.stderr.write(f"stand-in: expected the 'lsp' argument, got {sys.argv[1:]}\n")
        return 2
    root = None
    while True:
        message = read_message(stdin)
        if message is None or message.get("method") == "exit":
            return 0
        method = message.get("method")
        reply = None
        if method == "initialize":
            root = message["params"].get("rootUri")
            reply = {"capabilities": {"textDocumentSync": 1, "hoverProvider": True, "definitionProvider": True}}
        elif method == "textDocument/didOpen":
            diagnostic = {
                "range": {"start": {"line": 10, "character": 15}, "end": {"line": 10, "character": 20}},
                "severity": 2,
                "code": "unused-variable" if WRONG else "unknown-variable",
                "source": "puppet-ls",
                "message": "unknown variable '$prot'",
            }
            uri = message["params"]["textDocument"]["uri"]
            send(stdout, {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                          "params": {"uri": uri, "diagnostics": [diagnostic]}})
        elif method == "textDocument/hover":
            text = "String" if WRONG else "Integer[8080, 8080]"
            reply = {"contents": {"kind": "markdown", "value": f"```puppet\n{text}\n```"}}
        elif method == "textDocument/definition":
            target = "/manifests/init.pp" if WRONG else "/types/port.pp"
            reply = [{"uri": root + target,
                      "range": {"start": {"line": 1, "character": 5}, "end": {"line": 1, "character": 15}}}]
        if "id" in message and method is not None:
            send(stdout, {"jsonrpc": "2.0", "id": message["id"], "result": reply})


if __name__ == "__main__":
    sys.exit(main())
