"""A TCP relay in front of a real server (PostgreSQL, Redis): stopping it is the server
going away (connections cut, new ones refused); starting it again is the server back."""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpRelay:
    """A TCP relay between the store and PostgreSQL: stopping it is the server going
    away (connections cut, new ones refused); starting it again is the server back."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.listener: socket.socket | None = None
        self.sockets: list[socket.socket] = []

    def start(self) -> TcpRelay:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self.accept, args=(listener,), daemon=True).start()
        return self

    def accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self.pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        if self.listener is not None:
            with contextlib.suppress(OSError):  # wakes the thread waiting in accept()
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        self.sockets = []
