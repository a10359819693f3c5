#!/usr/bin/env python3
"""Self-test of check_umbrella.py: the root passes; a root that stops exporting one
of the framework's products fails, naming it."""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
script = os.path.join(here, "check_umbrella.py")

with tempfile.TemporaryDirectory() as temp:
    # The same tree, by links, under a root manifest that lacks one product.
    for name in os.listdir(root):
        if name not in ("Package.swift", ".build", ".git"):
            os.symlink(os.path.join(root, name), os.path.join(temp, name))
    with open(os.path.join(root, "Package.swift")) as handle:
        text = handle.read()
    planted = text.replace('    .library(name: "FeatureKit", targets: ["FeatureKit"]),\n', "")
    assert planted != text, "the root exports FeatureKit as the test expects"
    with open(os.path.join(temp, "Package.swift"), "w") as handle:
        handle.write(planted)
    missing = subprocess.run([sys.executable, script, temp], capture_output=True, text=True)
    assert missing.returncode == 1, missing
    assert "Packages/ServiceLinker has the library product 'FeatureKit', which the root package does not export" in (
        missing.stderr), missing.stderr
print("ok: a root that stops exporting a framework product fails, naming it")
