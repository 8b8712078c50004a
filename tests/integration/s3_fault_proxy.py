#!/usr/bin/env python3
"""An HTTP proxy in front of an S3 server (radosgw) that injects faults, for dlsize's tests.

Requests are forwarded byte for byte (the Host header too: the client signed the proxy's
host:port, and radosgw checks the signature against the Host it receives), each client
connection over its own kept-alive upstream connection. A request whose "METHOD PATH" (PATH with
its query: "GET /bucket/key", "PUT /bucket/key?partNumber=1&uploadId=...") contains a rule's
substring, while the rule has faults left, gets the rule's fault instead:

  503:SUBSTR:COUNT           answer 503 SlowDown (S3's <Error> body)
  500:SUBSTR:COUNT           answer 500 InternalError
  503every:SUBSTR:N          answer 503 SlowDown to every Nth request of each kind (its method
                             and the names of its query: GET, HEAD, GET ?list-type, PUT
                             ?partNumber&uploadId, POST ?uploads, ...); SUBSTR may be empty
  reset:SUBSTR:COUNT         send the answer's headers and half its body, then reset (RST)
  short:SUBSTR:COUNT         send the answer's headers and half its body, then close (FIN): a
                             body cut short
  long:SUBSTR:COUNT          send the answer's body with 1000 bytes more, its Content-Length
                             grown to match: a body longer than asked for
  stall:SUBSTR:COUNT:SECONDS wait SECONDS before forwarding (the client sees nothing meanwhile)
  slow:SUBSTR:COUNT:BPS      forward the body at BPS bytes per second
  cut:SUBSTR:COUNT           read half the request's body (an upload), then reset (RST)
  die:SUBSTR:N               at the Nth matching request, exit at once: every connection is
                             closed and no new one is accepted (a server killed mid-run)
  freeze:SUBSTR:COUNT:SECONDS  the whole server answers nothing, and sends no byte of an answer
                             in flight, for SECONDS from a matching request (a frozen server)

COUNT -1: every matching request. Every fault served is appended to --log as "KIND PATH TIME"
(TIME: the Unix time it was served). The listening port is written to --port-file once the
proxy accepts connections.
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
LONGER = 1000  # the bytes a "long" answer adds


KINDS = ("503", "500", "503every", "reset", "short", "long", "stall", "slow", "cut", "die",
         "freeze")


class Rule:
    def __init__(self, text):
        parts = text.split(":")
        if len(parts) < 3 or parts[0] not in KINDS:
            raise SystemExit(f"s3_fault_proxy: bad rule '{text}'. valid: KIND:SUBSTR:COUNT[:ARG]")
        self.kind, self.substr, self.left = parts[0], parts[1], int(parts[2])
        self.arg = float(parts[3]) if len(parts) > 3 else 0.0
        if self.kind in ("stall", "slow", "freeze") and self.arg <= 0:
            raise SystemExit(f"s3_fault_proxy: rule '{text}' needs a positive ARG")
        if self.kind in ("503every", "die") and self.left <= 0:
            raise SystemExit(f"s3_fault_proxy: rule '{text}' needs a positive N")
        self.seen = {}  # 503every: requests by kind; die: matching requests


def request_kind(method, path):
    """GET, HEAD, GET?list-type, PUT?partNumber&uploadId, POST?uploads, ..."""
    query = path.split("?", 1)[1] if "?" in path else ""
    names = sorted(p.split("=", 1)[0] for p in query.split("&") if p)
    return method + ("?" + "&".join(names) if names else "")


class Proxy:
    def __init__(self, upstream, rules, log):
        self.upstream = upstream
        self.rules = rules
        self.log = log
        self.lock = threading.Lock()
        self.frozen_until = 0.0

    def wait_frozen(self):
        while True:
            left = self.frozen_until - time.time()
            if left <= 0:
                return
            time.sleep(min(left, 0.05))

    def matches(self, r, method, path):
        if r.substr not in f"{method} {path}":
            return False
        if r.kind in ("503every", "die"):
            key = request_kind(method, path) if r.kind == "503every" else ""
            r.seen[key] = r.seen.get(key, 0) + 1
            return r.seen[key] % r.left == 0 if r.kind == "503every" else r.seen[key] == r.left
        if r.left == 0:
            return False
        if r.left > 0:
            r.left -= 1
        return True

    def fault_for(self, method, path):
        with self.lock:
            for r in self.rules:
                if self.matches(r, method, path):
                    if self.log:
                        with open(self.log, "a") as f:
                            f.write(f"{r.kind} {method} {path} {time.time():.3f}\n")
                    if r.kind == "freeze":
                        self.frozen_until = time.time() + r.arg
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
        if self.command != "HEAD":  # a HEAD's answer has no body, only its length
            self.wfile.write(body)

    def close(self):
        self.connection.shutdown(socket.SHUT_WR)  # FIN: the answer ends where it is
        self.connection.close()
        self.close_connection = True

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
            if fault and fault.kind == "long" and name.lower() == "content-length" and not chunked:
                value = str(int(value) + LONGER)
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
            if kind in ("reset", "short"):
                want = min(CHUNK, total // 2 - sent)
                if want <= 0:
                    resp.read()  # the upstream connection stays usable
                    self.wfile.flush()
                    self.reset() if kind == "reset" else self.close()
                    return
            data = resp.read(want)
            if not data:
                break
            self.proxy.wait_frozen()
            self.wfile.write(data)
            sent += len(data)
            if kind == "slow":
                self.wfile.flush()
                time.sleep(len(data) / fault.arg)
        if kind == "long":
            self.wfile.write(b"x" * LONGER)
        if kind in ("reset", "short"):  # an empty body: cut after the headers
            self.reset() if kind == "reset" else self.close()

    def handle_one(self):
        fault = self.proxy.fault_for(self.command, self.path)
        if fault and fault.kind == "die":
            os._exit(0)  # every socket closes with the process: a killed server
        self.proxy.wait_frozen()
        if fault and fault.kind in ("503", "500", "503every"):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            if fault.kind in ("503", "503every"):
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


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that resets or a connection the proxy cut on purpose: no traceback


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
    server = QuietServer(("127.0.0.1", 0), Handler)
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
