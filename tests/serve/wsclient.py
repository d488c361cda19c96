# A small WebSocket client (RFC 6455) on Python's standard library, for the tests of keli serve:
# it speaks the protocol as a browser would (masked frames, the opening handshake) and can also
# send what no browser would (binary, oversized or broken frames) to test the server's limits.
import base64
import json
import os
import socket
import struct

OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x2, 0x8, 0x9, 0xA


class Closed(Exception):
    """The server closed the connection; `code` is its close code (None: no close frame)."""

    def __init__(self, code):
        super().__init__(f"closed by the server ({code})")
        self.code = code


class Client:
    def __init__(self, port, path="/ws", timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Closed(None)
            head += chunk
        head, self.pending = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise AssertionError(f"no WebSocket upgrade: {head[:200]!r}")

    def frame(self, opcode, payload, fin=True):
        """Sends one masked frame."""
        head = bytes([(0x80 if fin else 0) | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, message):
        self.frame(OP_TEXT, (message if isinstance(message, str) else json.dumps(message)).encode())

    def _read(self, n):
        while len(self.pending) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed(None)
            self.pending += chunk
        out, self.pending = self.pending[:n], self.pending[n:]
        return out

    def recv(self):
        """The next text message (its fragments joined), parsed; pings are answered; Closed at a
        close frame."""
        message, op_of_message = b"", None
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            op, fin = b0 & 0x0F, b0 & 0x80
            if op == OP_CLOSE:
                raise Closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None)
            if op == OP_PING:
                self.frame(OP_PONG, payload)
                continue
            if op != 0:  # a message's first frame (0: a continuation)
                message, op_of_message = b"", op
            message += payload
            if fin and op_of_message == OP_TEXT:
                return json.loads(message)

    def until(self, test, what, most=100000):
        """Reads messages until one passes `test`; returns it."""
        for _ in range(most):
            m = self.recv()
            if test(m):
                return m
        raise AssertionError(f"no message {what} in {most}")

    def close(self):
        try:
            self.frame(OP_CLOSE, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()
