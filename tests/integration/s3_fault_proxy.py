#!/usr/bin/env python3
"""An HTTP proxy in front of an S3 server (radosgw) that injects faults, for dlsize's tests.

Requests are forwarded byte for byte (the Host header too: the client signed the proxy's
host:port, and radosgw checks the signature against the Host it receives), each client
connection over its own kept-alive upstream connection. A request whose path contains a rule's
substring, while the rule has faults left, gets the rule's fault instead:

  503:SUBSTR:COUNT           answer 503 SlowDown (S3's <Error> body)
  500:SUBSTR:COUNT           answer 500 InternalError
  reset:SUBSTR:COUNT         send the answer's headers and half its body, then reset (RST)
  stall:SUBSTR:COUNT:SECONDS wait SECONDS before forwarding (the client sees nothing meanwhile)
  slow:SUBSTR:COUNT:BPS      forward the body at BPS bytes per second
  cut:SUBSTR:COUNT           read half the request's body (an upload), then reset (RST)

COUNT -1: every matching request. Every fault served is appended to --log as "KIND PATH".
The listening port is written to --port-file once the proxy accepts connections.
"""
import argparse
import http.client
import http.server
import os
import socket
import struct
import sys
import threading
import time

CHUNK = 64 * 1024


class Rule:
    def __init__(self, text):
        parts = text.split(":")
        if len(parts) < 3 or parts[0] not in ("503", "500", "reset", "stall", "slow", "cut"):
            raise SystemExit(f"s3_fault_proxy: bad rule '{text}'. valid: KIND:SUBSTR:COUNT[:ARG]")
        self.kind, self.substr, self.left = parts[0], parts[1], int(parts[2])
        self.arg = float(parts[3]) if len(parts) > 3 else 0.0
        if self.kind in ("stall", "slow") and self.arg <= 0:
            raise SystemExit(f"s3_fault_proxy: rule '{text}' needs a positive ARG")


class Proxy:
    def __init__(self, upstream, rules, log):
        self.upstream = upstream
        self.rules = rules
        self.log = log
        self.lock = threading.Lock()

    def fault_for(self, path):
        with self.lock:
            for r in self.rules:
                if r.substr in path and r.left != 0:
                    if r.left > 0:
                        r.left -= 1
                    if self.log:
                        with open(self.log, "a") as f:
                            f.write(f"{r.kind} {path}\n")
                    return r
        return None


def error_body(code, message):
    return (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
            f"<Message>{message}</Message></Error>").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "s3_fault_proxy"  # the Server header of its own answers
    sys_version = ""
    proxy = None  # set in main

    def log_message(self, *args):
        pass

    def upstream(self):
        conn = getattr(self, "_up", None)
        if conn is None:
            host, port = self.proxy.upstream
            conn = http.client.HTTPConnection(host, port, timeout=120)
            self._up = conn
        return conn

    def answer_error(self, status, code, message):
        body = error_body(code, message)
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def reset(self):
        # SO_LINGER 0: close sends RST rather than FIN.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def forward(self, fault):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        conn = self.upstream()
        conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
        for name, value in self.headers.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        resp = conn.getresponse()
        self.send_response_only(resp.status, resp.reason)
        # A chunked answer (a listing) is read whole by http.client, and sent with its length.
        chunked = "chunked" in (resp.getheader("Transfer-Encoding") or "").lower()
        whole = resp.read() if chunked else None
        for name, value in resp.getheaders():
            if name.lower() not in ("connection", "transfer-encoding"):
                self.send_header(name, value)
        if chunked:
            self.send_header("Content-Length", str(len(whole)))
        self.end_headers()
        if chunked:
            self.wfile.write(whole)
            return
        total = int(resp.getheader("Content-Length") or 0)
        sent = 0
        kind = fault.kind if fault else ""
        while True:
            want = CHUNK
            if kind == "reset":
                want = min(CHUNK, total // 2 - sent)
                if want <= 0:
                    resp.read()  # the upstream connection stays usable
                    self.wfile.flush()
                    self.reset()
                    return
            data = resp.read(want)
            if not data:
                break
            self.wfile.write(data)
            sent += len(data)
            if kind == "slow":
                self.wfile.flush()
                time.sleep(len(data) / fault.arg)
        if kind == "reset":  # an empty body: reset after the headers
            self.reset()

    def handle_one(self):
        fault = self.proxy.fault_for(self.path)
        if fault and fault.kind in ("503", "500"):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            if fault.kind == "503":
                self.answer_error(503, "SlowDown", "Please reduce your request rate.")
            else:
                self.answer_error(500, "InternalError", "We encountered an internal error.")
            return
        if fault and fault.kind == "cut":
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length // 2)
            self.reset()
            return
        if fault and fault.kind == "stall":
            time.sleep(fault.arg)
        try:
            self.forward(fault)
        except (ConnectionError, http.client.HTTPException, OSError):
            self._up = None
            self.close_connection = True

    do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = handle_one


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", required=True, help="http://HOST:PORT of the S3 server")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", default="")
    ap.add_argument("rules", nargs="*")
    a = ap.parse_args()
    up = a.upstream.split("://", 1)[-1].rstrip("/")
    host, port = up.rsplit(":", 1)
    Handler.proxy = Proxy((host, int(port)), [Rule(r) for r in a.rules], a.log)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, a.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
