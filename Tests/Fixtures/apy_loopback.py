"""Runs Debian's apertium-apy bound to 127.0.0.1 only (its own options bind
every interface). Usage: /usr/bin/python3 apy_loopback.py <apertium-apy args>"""
import sys

import tornado.tcpserver

_bind = tornado.tcpserver.TCPServer.bind


def bind_loopback(self, port, address=None, *args, **kwargs):
    return _bind(self, port, "127.0.0.1", *args, **kwargs)


tornado.tcpserver.TCPServer.bind = bind_loopback

from apertium_apy import apy  # noqa: E402

sys.argv = ["apertium-apy"] + sys.argv[1:]
apy.main()
