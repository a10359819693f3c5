#!/usr/bin/env python3
"""One source of truth per domain's dependencies, checked.

The umbrella `Package.swift` lists each domain as `DomainPackage(name:, uses:)`;
each domain's own `Packages/<Name>/Package.swift` lists its main target's
dependencies. They must name the same modules: the umbrella is what `make test`
builds, the package's own manifest what `make build PKG=<Name>` and an adopter
build. Prints `file:line:column: error: …` for each disagreement and exits 1;
prints one `umbrella: …` line otherwise. It also checks that the root package
exports every product of Packages/ServiceLinker and tools/LinkGen (one URL for
adopters), unless `--manifests-only`. Usage: check_umbrella.py [--manifests-only] [ROOT]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

DOMAIN = re.compile(r'DomainPackage\(name:\s*"(\w+)",\s*uses:\s*\[([^\]]*)\]\)')
NAME = re.compile(r'"(\w+)"')


def position(text, offset):
    """1-based line and column of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def bracketed(text, start):
    """The text from `start` (just after a `[`) to its matching `]`."""
    depth = 1
    for index in range(start, len(text)):
        if text[index] == "[":
            depth += 1
        elif text[index] == "]":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return text[start:]


def own_dependencies(text, name):
    """The modules the target `name` depends on in a package manifest, or None if it has no such target."""
    target = re.search(r'\.target\(\s*name:\s*"' + re.escape(name) + r'"', text)
    if not target:
        return None
    rest = text[target.end():]
    # The target's own arguments end at the next target; its dependencies come before that.
    end = re.search(r"\.(?:target|testTarget|executableTarget|systemLibrary)\(", rest)
    arguments = rest[: end.start()] if end else rest
    found = re.search(r"dependencies:\s*\[", arguments)
    if not found:
        return set()
    listed = re.sub(r'package:\s*"\w+"', "", bracketed(arguments, found.end()))
    return set(NAME.findall(listed))


def check(root):
    umbrella_path = os.path.join(root, "Package.swift")
    with open(umbrella_path, encoding="utf-8") as handle:
        umbrella = handle.read()
    errors = []
    domains = 0
    for match in DOMAIN.finditer(umbrella):
        name, uses = match.group(1), set(NAME.findall(match.group(2)))
        domains += 1
        manifest = os.path.join(root, "Packages", name, "Package.swift")
        line, column = position(umbrella, match.start())
        if not os.path.exists(manifest):
            errors.append(f"Package.swift:{line}:{column}: error: domain '{name}' has no Packages/{name}/Package.swift")
            continue
        with open(manifest, encoding="utf-8") as handle:
            text = handle.read()
        own = own_dependencies(text, name)
        if own is None:
            errors.append(f"Packages/{name}/Package.swift:1:1: error: no target named '{name}'")
            continue
        if own != uses:
            target_line, target_column = position(text, re.search(r'\.target\(\s*name:\s*"' + name + '"', text).start())
            def listing(names):
                return "[" + ", ".join(sorted(names)) + "]"
            errors.append(
                f"Packages/{name}/Package.swift:{target_line}:{target_column}: error: target '{name}' depends on "
                f"{listing(own)}, but the umbrella Package.swift:{line}:{column} says it uses {listing(uses)}; "
                "make the two lists name the same modules")
    if domains == 0:
        errors.append("Package.swift:1:1: error: no DomainPackage(name:, uses:) entries found")
    return errors, domains


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
    arguments = [argument for argument in sys.argv[1:] if argument != "--manifests-only"]
    root = arguments[0] if arguments else os.path.join(os.path.dirname(__file__), "..")
    errors, domains = check(root)
    if "--manifests-only" not in sys.argv:
        errors += check_exports(root)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        return 1
    print(f"umbrella: {domains} domains agree with their own Package.swift; the root exports the framework and linkgen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
