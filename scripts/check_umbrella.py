#!/usr/bin/env python3
"""One URL for adopters, checked: the root package exports every product of
Packages/ServiceLinker and tools/LinkGen, as SwiftPM reads the manifests
(`swift package dump-package`). Prints `Package.swift:1:1: error: …` for each
product it lacks and exits 1; prints one `umbrella: …` line otherwise.

That each domain's umbrella listing (`DomainPackage(name:, uses:, testing:)`)
agrees with its own Packages/<Name>/Package.swift is `linkgen check`'s job
(UmbrellaCheck), so that adopters get it too. Usage: check_umbrella.py [ROOT]
"""
import json
import os
import subprocess
import sys
import tempfile

def products(package, scratch):
    """The products of the package at `package`, as SwiftPM reads its manifest: {name: type}."""
    result = subprocess.run(
        ["swift", "package", "--package-path", package, "--scratch-path", scratch, "dump-package"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"swift package dump-package failed in {package}: {result.stderr.strip()}")
    return {product["name"]: next(iter(product["type"])) for product in json.loads(result.stdout)["products"]}


def check_exports(root):
    """One URL for adopters: every product of the framework and of linkgen is a product of the root package."""
    errors = []
    with tempfile.TemporaryDirectory() as scratch:
        exported = products(root, scratch)
        for package in ("Packages/ServiceLinker", "tools/LinkGen"):
            for name, kind in sorted(products(os.path.join(root, package), scratch).items()):
                if exported.get(name) != kind:
                    errors.append(
                        f"Package.swift:1:1: error: {package} has the {kind} product '{name}', which the root package "
                        "does not export; add it to the root's products so adopters depend on one URL")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    errors = check_exports(root)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        return 1
    print("umbrella: the root exports every product of the framework and of linkgen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
