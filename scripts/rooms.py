#!/usr/bin/env python3
"""The size of each room, kept true: lines of Swift (every line, as `wc -l`
counts them) under each package's Sources, the kiosk's and the framework's
by target, and the shell's own files. `rooms.py --write` puts the table in
docs/ARCHITECTURE.md between its markers; `rooms.py --check` (make check)
fails, naming `make rooms`, when the table there is not what the tree holds.
Usage: rooms.py --write|--check [ROOT]
"""
import glob
import os
import sys

BEGIN = "<!-- rooms:begin (make rooms writes this table) -->"
END = "<!-- rooms:end -->"
DOC = "docs/ARCHITECTURE.md"


def lines(paths):
    """Every line of the Swift files under `paths` (files or folders)."""
    total = 0
    for path in paths:
        files = [path] if path.endswith(".swift") else glob.glob(os.path.join(path, "**", "*.swift"), recursive=True)
        for name in files:
            with open(name, "rb") as source:
                total += source.read().count(b"\n")
    return total


def rooms(root):
    """(room, lines) rows: each package's Sources, the framework's and the kiosk's targets, the shell."""
    rows = []
    for package in sorted(glob.glob(os.path.join(root, "Packages", "*"))):
        name = os.path.basename(package)
        sources = os.path.join(package, "Sources")
        if not os.path.isdir(sources):
            continue
        rows.append((f"`Packages/{name}/Sources`", lines([sources])))
        if name in ("ServiceLinker", "KioskApp"):
            for target in sorted(glob.glob(os.path.join(sources, "*"))):
                rows.append((f"&nbsp;&nbsp;`{os.path.basename(target)}`", lines([target])))
    shell = sorted(glob.glob(os.path.join(root, "Packages", "KioskApp", "Sources", "KioskApp", "KioskShell*.swift")))
    # Issue 41 bounds the old shell's files at 500 lines; they are gone, and the row says so.
    rows.append(("`KioskShell*.swift` (the old shell, within `KioskApp`)", lines(shell)))
    for tool in sorted(glob.glob(os.path.join(root, "tools", "*", "Sources"))):
        rows.append((f"`tools/{os.path.basename(os.path.dirname(tool))}/Sources`", lines([tool])))
    return [(room, count) for room, count in rows]


def table(root):
    """The table as docs/ARCHITECTURE.md holds it, markers included."""
    body = ["| room | lines of Swift |", "|---|---|"]
    body += [f"| {room} | {count:,} |" for room, count in rooms(root)]
    return "\n".join([BEGIN, *body, END])


def main(argv):
    if len(argv) < 2 or argv[1] not in ("--write", "--check"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = argv[2] if len(argv) > 2 else "."
    path = os.path.join(root, DOC)
    with open(path, encoding="utf-8") as doc:
        text = doc.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        print(f"{DOC}:1:1: error: no rooms table between '{BEGIN}' and '{END}'", file=sys.stderr)
        return 1
    current = text[start:end + len(END)]
    wanted = table(root)
    if argv[1] == "--check":
        if current != wanted:
            line = text[:start].count("\n") + 1
            print(f"{DOC}:{line}:1: error: the rooms' line counts are stale; run `make rooms`", file=sys.stderr)
            return 1
        print("rooms: the line counts in docs/ARCHITECTURE.md are the tree's")
        return 0
    if current != wanted:
        with open(path, "w", encoding="utf-8") as doc:
            doc.write(text[:start] + wanted + text[end + len(END):])
    print(f"rooms: {DOC} holds the tree's line counts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
