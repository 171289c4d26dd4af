#!/usr/bin/python3
"""A pointer for a headless wlroots compositor (sway), which has none: a
client of zwlr_virtual_pointer_v1 that adds a pointer to the seat, moves it
and presses its left button, as a person with a mouse would. It speaks the
Wayland wire protocol itself (the requests it needs are few, and carry no
file descriptors), so it needs nothing but Python.

Usage: virtual_pointer.py <action>...
  wait <ms>         waits (a client binds a new pointer only once the
                    compositor has announced it: wait before the first move)
  move <x> <y>      puts the pointer at x, y of the output (logical pixels)
  click <x> <y>     moves there, then presses and releases the left button
  press / release   the left button alone
The output's size comes from $OUTPUT_SIZE ("1280x800" when unset). The
pointer goes from the seat when the actions are done. Exits 1, with the
reason on stderr, when the compositor offers no virtual pointer.
"""
import os
import socket
import struct
import sys
import time

BUTTON_LEFT = 0x110  # Linux's BTN_LEFT


class Connection:
    def __init__(self):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.next_id = 2  # 1 is wl_display
        self.globals = {}  # interface: (name, version)
        self.buffer = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, object_id, opcode, arguments=b""):
        size = 8 + len(arguments)
        self.socket.sendall(struct.pack("=II", object_id, size << 16 | opcode) + arguments)

    @staticmethod
    def string(text):
        data = text.encode() + b"\0"
        return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)

    def roundtrip(self, registry=None):
        """wl_display.sync, reading events until its callback is done."""
        callback = self.new_id()
        self.send(1, 0, struct.pack("=I", callback))
        while True:
            while len(self.buffer) < 8:
                chunk = self.socket.recv(4096)
                if not chunk:
                    sys.exit("the compositor closed the connection")
                self.buffer += chunk
            object_id, word = struct.unpack_from("=II", self.buffer)
            size, opcode = word >> 16, word & 0xFFFF
            while len(self.buffer) < size:
                self.buffer += self.socket.recv(4096)
            body, self.buffer = self.buffer[8:size], self.buffer[size:]
            if object_id == 1 and opcode == 0:  # wl_display.error
                _, code, length = struct.unpack_from("=III", body)
                sys.exit("protocol error %d: %s" % (code, body[12 : 12 + length - 1].decode()))
            if object_id == registry and opcode == 0:  # wl_registry.global
                name, length = struct.unpack_from("=II", body)
                interface = body[8 : 8 + length - 1].decode()
                (version,) = struct.unpack_from("=I", body, 8 + length + (-length % 4))
                self.globals[interface] = (name, version)
            if object_id == callback and opcode == 0:  # wl_callback.done
                return

    def bind(self, registry, interface, version):
        name, offered = self.globals[interface]
        object_id = self.new_id()
        arguments = struct.pack("=I", name) + self.string(interface) + struct.pack("=II", min(version, offered), object_id)
        self.send(registry, 0, arguments)
        return object_id


def main(actions):
    width, height = (int(part) for part in os.environ.get("OUTPUT_SIZE", "1280x800").split("x"))
    connection = Connection()
    registry = connection.new_id()
    connection.send(1, 1, struct.pack("=I", registry))  # wl_display.get_registry
    connection.roundtrip(registry)
    if "zwlr_virtual_pointer_manager_v1" not in connection.globals:
        sys.exit("the compositor offers no zwlr_virtual_pointer_manager_v1")
    # No seat yet (phoc makes its seat with its first input device): the
    # compositor's default seat, which the pointer then brings about.
    seat = connection.bind(registry, "wl_seat", 1) if "wl_seat" in connection.globals else 0
    manager = connection.bind(registry, "zwlr_virtual_pointer_manager_v1", 1)
    pointer = connection.new_id()
    connection.send(manager, 0, struct.pack("=II", seat, pointer))  # create_virtual_pointer
    connection.roundtrip()

    def now():
        return int(time.monotonic() * 1000) & 0xFFFFFFFF

    def move(x, y):
        connection.send(pointer, 1, struct.pack("=IIIII", now(), x, y, width, height))  # motion_absolute
        connection.send(pointer, 4)  # frame

    def button(pressed):
        connection.send(pointer, 2, struct.pack("=III", now(), BUTTON_LEFT, 1 if pressed else 0))
        connection.send(pointer, 4)

    while actions:
        action = actions.pop(0)
        if action == "wait":
            time.sleep(int(actions.pop(0)) / 1000)
        elif action == "move":
            move(int(actions.pop(0)), int(actions.pop(0)))
        elif action == "click":
            move(int(actions.pop(0)), int(actions.pop(0)))
            connection.roundtrip()
            time.sleep(0.05)
            button(True)
            connection.roundtrip()
            time.sleep(0.05)
            button(False)
        elif action in ("press", "release"):
            button(action == "press")
        else:
            sys.exit("unknown action %r (wait, move, click, press, release)" % action)
        connection.roundtrip()
    connection.send(pointer, 8)  # destroy
    connection.roundtrip()


if __name__ == "__main__":
    main(sys.argv[1:])
