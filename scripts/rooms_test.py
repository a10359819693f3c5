#!/usr/bin/env python3
"""Self-test of rooms.py: a table it wrote passes `--check`; a line added to a
room fails it, naming `make rooms`; a document without the markers fails."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(mode, root):
    return subprocess.run([sys.executable, os.path.join(HERE, "rooms.py"), mode, root], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Packages", "Menu", "Sources", "Menu"))
        os.makedirs(os.path.join(root, "docs"))
        source = os.path.join(root, "Packages", "Menu", "Sources", "Menu", "Menu.swift")
        with open(source, "w") as out:
            out.write("struct Menu {}\n\n")
        doc = os.path.join(root, "docs", "ARCHITECTURE.md")
        with open(doc, "w") as out:
            out.write("# Architecture\n\n<!-- rooms:begin (make rooms writes this table) -->\n<!-- rooms:end -->\n")
        assert run("--check", root).returncode == 1, "an empty table passed"
        assert run("--write", root).returncode == 0
        assert "| `Packages/Menu/Sources` | 2 |" in open(doc).read()
        assert run("--check", root).returncode == 0, "the table it wrote failed"
        with open(source, "a") as out:
            out.write("extension Menu {}\n")
        stale = run("--check", root)
        assert stale.returncode == 1 and "make rooms" in stale.stderr, stale.stderr
        with open(doc, "w") as out:
            out.write("# Architecture\n")
        assert run("--check", root).returncode == 1, "a document without the table passed"
    print("ok: a written table passes, a stale one and a missing one fail")


if __name__ == "__main__":
    main()
