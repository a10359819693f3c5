#!/usr/bin/env python3
"""Self-test of check_framework.py: a clean copy passes, planted leaks fail with their places."""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
script = os.path.join(here, "check_framework.py")


def run(tree):
    return subprocess.run([sys.executable, script, tree], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as temp:
    copy = os.path.join(temp, "Packages", "ServiceLinker")
    shutil.copytree(os.path.join(root, "Packages", "ServiceLinker"), copy, ignore=shutil.ignore_patterns(".build"))
    shutil.copytree(
        os.path.join(root, "Packages", "Journal"), os.path.join(temp, "Packages", "Journal"),
        ignore=shutil.ignore_patterns(".build"), symlinks=True)
    clean = run(temp)
    assert clean.returncode == 0, clean.stderr
    leak = os.path.join(copy, "Sources", "FeatureKit", "Leak.swift")
    with open(leak, "w") as handle:
        handle.write("import Foundation\n@testable import Menu\n")
    with open(os.path.join(copy, "Package.swift"), "a") as handle:
        handle.write('// dependencies: [.package(path: "../Menu")]\n')
    with open(os.path.join(temp, "Packages", "Journal", "Sources", "Journal", "Leak.swift"), "w") as handle:
        handle.write("import Tabs\n")
    leaked = run(temp)
    assert leaked.returncode == 1, leaked
    assert "Packages/ServiceLinker/Sources/FeatureKit/Leak.swift:2:18: error: the framework imports 'Menu'" in leaked.stderr, leaked.stderr
    assert "Packages/ServiceLinker/Package.swift:" in leaked.stderr and "depends on another package" in leaked.stderr
    assert "Packages/Journal/Sources/Journal/Leak.swift:1:8: error: the write-ahead log" in leaked.stderr, leaked.stderr
print("ok: a clean copy passes; a planted import (in the framework or its journal) and a package dependency fail at their lines")
