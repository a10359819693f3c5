#!/usr/bin/env python3
"""Self-test of check_umbrella.py: a clean copy passes, a planted drift fails at its place."""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
script = os.path.join(here, "check_umbrella.py")


def run(tree):
    return subprocess.run([sys.executable, script, "--manifests-only", tree], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as temp:
    shutil.copy(os.path.join(root, "Package.swift"), temp)
    for name in os.listdir(os.path.join(root, "Packages")):
        manifest = os.path.join(root, "Packages", name, "Package.swift")
        if os.path.exists(manifest):
            os.makedirs(os.path.join(temp, "Packages", name))
            shutil.copy(manifest, os.path.join(temp, "Packages", name))
    clean = run(temp)
    assert clean.returncode == 0, clean.stderr
    umbrella = os.path.join(temp, "Package.swift")
    with open(umbrella) as handle:
        text = handle.read()
    planted = text.replace('DomainPackage(name: "Stock", uses: ["Menu"])', 'DomainPackage(name: "Stock", uses: ["Menu", "Clock"])')
    assert planted != text, "the umbrella lists Stock as the test expects"
    with open(umbrella, "w") as handle:
        handle.write(planted)
    drifted = run(temp)
    assert drifted.returncode == 1, drifted
    assert "Packages/Stock/Package.swift:" in drifted.stderr, drifted.stderr
    assert "error: target 'Stock' depends on [Menu], but the umbrella Package.swift:" in drifted.stderr, drifted.stderr
    assert "says it uses [Clock, Menu]" in drifted.stderr, drifted.stderr
print("ok: a clean copy passes; a planted drift fails at both places")
