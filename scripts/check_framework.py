#!/usr/bin/env python3
"""The framework's perimeter: Packages/ServiceLinker names no app.

Every `import` in its sources and tests must be a toolchain module or one of
the framework's own targets, and its manifest may depend on no other package.
Prints `file:line:column: error: …` for each leak and exits 1; prints one
`framework: clean (…)` line otherwise. Usage: check_framework.py [ROOT]
"""
import os
import re
import sys

TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Testing", "XCTest", "Synchronization",
    "Dispatch", "Observation", "Glibc", "Musl", "Darwin", "_Concurrency", "RegexBuilder",
}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:\w+\s+)?([A-Za-z_][\w]*)")


def check(root):
    framework = os.path.join(root, "Packages", "ServiceLinker")
    sources = os.path.join(framework, "Sources")
    if not os.path.isdir(sources):
        return [f"{framework}: error: the framework package is missing"], 0
    own = {name for name in os.listdir(sources) if os.path.isdir(os.path.join(sources, name))}
    allowed = TOOLCHAIN | own
    errors = []
    files = 0
    for top in ("Sources", "Tests"):
        for folder, _, names in sorted(os.walk(os.path.join(framework, top))):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                files += 1
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if match and match.group(1) not in allowed:
                            module = match.group(1)
                            errors.append(
                                f"{os.path.relpath(path, root)}:{number}:{match.start(1) + 1}: error: the framework "
                                f"imports '{module}', which is not the toolchain's nor one of its targets "
                                f"({', '.join(sorted(own))}); move the code that needs it into the app")
    manifest = os.path.join(framework, "Package.swift")
    with open(manifest, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            column = line.find(".package(")
            if column >= 0:
                errors.append(
                    f"{os.path.relpath(manifest, root)}:{number}:{column + 1}: error: the framework depends on "
                    "another package; it builds on the toolchain alone")
    return errors, files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    errors, files = check(os.path.abspath(root))
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"framework: clean ({files} files import only the toolchain and the framework's own targets)")


if __name__ == "__main__":
    main()
