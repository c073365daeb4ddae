"""s3_fault_proxy.py: an HTTP/1.1 proxy between RockLake and an S3 server that plays
the faults a real network and object store have, for test/scripts/s3_server.sh.

    python3 s3_fault_proxy.py LISTEN_PORT UPSTREAM_PORT MODE_FILE

It forwards requests one by one (keep-alive included) to 127.0.0.1:UPSTREAM_PORT.
What it does with each one is read from MODE_FILE when the request arrives, so a
test changes the weather by writing one word into the file:

    pass        forward the request and its response
    down        an outage: close every connection at once, forwarding nothing
    lose-puts   forward a PUT, let the server do it, then close the client's
                connection without its response (a response lost on the way back),
                the first time each key is put; every other request passes
    chaos P     each request, with probability P, meets one fault chosen at random:
                a 503 SlowDown answered without forwarding it, the connection cut
                before forwarding it, or its response lost after the server did it
                (conditional PUTs included); the others pass

It prints "listening" once it accepts connections, and a line for each response it
lost. Only what RockLake's S3 client
sends is understood: requests with a Content-Length body (it sends "Expect:" empty,
never chunked bodies) and responses with a Content-Length, a chunked body, or none.
"""

import random
import socket
import sys
import threading


LOST = set()                    # the keys whose first PUT lost its response
LOST_LOCK = threading.Lock()
CHAOS = random.Random(1)
SLOW_DOWN = (b"HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: 95\r\n\r\n"
             b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>x</Message></Error>\n")


def first_put(request: bytes) -> bool:
    path = request.split(b" ", 2)[1].split(b"?", 1)[0]
    with LOST_LOCK:
        if path in LOST:
            return False
        LOST.add(path)
        return True


def read_mode(path: str) -> str:
    try:
        with open(path) as f:
            return f.read().strip() or "pass"
    except FileNotFoundError:
        return "pass"


class Closed(Exception):
    pass


class Reader:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = b""

    def fill(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise Closed()
        self.buf += data

    def until(self, sep: bytes) -> bytes:
        while sep not in self.buf:
            self.fill()
        head, self.buf = self.buf.split(sep, 1)
        return head + sep

    def exactly(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def headers_of(head: bytes) -> dict:
    lines = head.decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in
            (line.split(":", 1) for line in lines if ":" in line)}


def read_message(reader: Reader, is_response: bool, method: str = "") -> bytes:
    """One whole HTTP message (head and body) as bytes."""
    head = reader.until(b"\r\n\r\n")
    headers = headers_of(head)
    if is_response:
        status = int(head.split(b" ", 2)[1])
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            return head
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size_line = reader.until(b"\r\n")
            body += size_line
            size = int(size_line.split(b";")[0], 16)
            body += reader.exactly(size + 2)
            if size == 0:
                return head + body
    return head + reader.exactly(int(headers.get("content-length", "0")))


def serve(client: socket.socket, upstream_port: int, mode_file: str) -> None:
    upstream = None
    try:
        creader = Reader(client)
        while True:
            request = read_message(creader, False)
            method = request.split(b" ", 1)[0].decode()
            mode = read_mode(mode_file)
            if mode == "down":
                return
            fault = None
            if mode.startswith("chaos ") and CHAOS.random() < float(mode.split()[1]):
                fault = CHAOS.choice(("slow-down", "cut", "lose-response"))
            if fault == "slow-down":
                client.sendall(SLOW_DOWN)
                continue
            if fault == "cut":
                return
            if upstream is None:
                upstream = socket.create_connection(("127.0.0.1", upstream_port))
                ureader = Reader(upstream)
            upstream.sendall(request)
            response = read_message(ureader, True, method)
            if (mode == "lose-puts" and method == "PUT" and first_put(request)) or fault == "lose-response":
                print("lost the response to", method, request.split(b" ", 2)[1].decode(), flush=True)
                return
            client.sendall(response)
    except (Closed, OSError, ValueError, IndexError):
        return
    finally:
        client.close()
        if upstream is not None:
            upstream.close()


def main() -> None:
    listen_port, upstream_port, mode_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen_port))
    server.listen(64)
    print("listening", flush=True)
    while True:
        client, _ = server.accept()
        if read_mode(mode_file) == "down":
            client.close()
            continue
        threading.Thread(target=serve, args=(client, upstream_port, mode_file), daemon=True).start()


if __name__ == "__main__":
    main()
