#!/usr/bin/env python3
"""Self-test of docs.py's check: an undocumented public symbol is an error at its place; a documented
one, or a member implementing a documented requirement, is not."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs  # noqa: E402


def symbol(identifier, path, documented, line=4):
    entry = {
        "identifier": {"precise": identifier}, "kind": {"displayName": "Instance Method"}, "pathComponents": path,
        "location": {"uri": f"file://{docs.ROOT}/Packages/Menu/Sources/Menu/Menu.swift", "position": {"line": line, "character": 2}},
    }
    if documented:
        entry["docComment"] = {"lines": [{"text": "Does it."}]}
    return entry


with tempfile.TemporaryDirectory() as output:
    graph = {
        "symbols": [
            symbol("s:a", ["MenuState", "documented()"], True),
            symbol("s:b", ["MenuState", "undocumented()"], False, line=9),
            symbol("s:c", ["MenuState", "description"], False),
        ],
        "relationships": [{"kind": "overrides", "source": "s:c", "target": "s:requirement"}],
    }
    with open(os.path.join(output, "Menu.symbols.json"), "w") as handle:
        json.dump(graph, handle)
    errors = docs.undocumented("Menu", output)
    assert errors == [
        "Packages/Menu/Sources/Menu/Menu.swift:10:3: error: public instance method 'MenuState.undocumented()' "
        "has no /// summary"
    ], errors
print("ok: an undocumented public symbol fails at its line; documented and inheriting ones pass")
