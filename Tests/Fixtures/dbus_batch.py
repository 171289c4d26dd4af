#!/usr/bin/python3
"""Translates a file's lines through org.translationhost.Translation1
(python3-dbus), for Tests/EndToEndTests/BatchIndependenceTests.swift, run
under dbus-run-session:

    dbus_batch.py batch <file>   every line in one Translate call
    dbus_batch.py alone <file>   one call per line, from the last line to the first

Prints the translations, in the file's order, as one JSON array (an empty
line is not sent alone: its translation is empty).
"""
import json
import sys

import dbus

NAME = "org.translationhost.Translation1"
PATH = "/org/translationhost/Translation1"


def main():
    way, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")[:-1]
    service = dbus.Interface(dbus.SessionBus().get_object(NAME, PATH), NAME)

    def translate(texts):
        # A batch of 2,000 lines takes seconds on a loaded machine: more than the bus's default 25 s is allowed.
        return [str(text) for text in service.Translate(dbus.Array(texts, signature="s"), "en", "es", "Apertium", timeout=600)]

    if way == "batch":
        translations = translate(lines)
    else:
        translations = [""] * len(lines)
        for index in reversed(range(len(lines))):
            if lines[index]:
                translations[index] = translate([lines[index]])[0]
    json.dump(translations, sys.stdout)


if __name__ == "__main__":
    main()
