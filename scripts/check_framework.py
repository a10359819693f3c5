#!/usr/bin/env python3
"""The framework's perimeter: Packages/ServiceLinker names no app.

Every `import` in its sources and tests must be a toolchain module, one of
the framework's own targets, or one of the write-ahead log's (Packages/Journal,
which DurableStore runs on); its manifest may depend on no other package; and
Packages/Journal itself imports only the toolchain and its own targets, so the
one dependency brings no kiosk module with it.
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


JOURNAL_DEPENDENCY = '.package(path: "../Journal")'


def targets(package):
    """The folder names under `package`/Sources: its targets."""
    sources = os.path.join(package, "Sources")
    return {name for name in os.listdir(sources) if os.path.isdir(os.path.join(sources, name))}


def leaks(root, package, allowed, what):
    """`file:line:column: error:` for each import in `package`'s Sources and Tests not in `allowed`; and the file count."""
    errors = []
    files = 0
    for top in ("Sources", "Tests"):
        for folder, _, names in sorted(os.walk(os.path.join(package, top))):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                files += 1
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if match and match.group(1) not in allowed:
                            errors.append(
                                f"{os.path.relpath(path, root)}:{number}:{match.start(1) + 1}: error: {what} "
                                f"imports '{match.group(1)}', which is not the toolchain's nor one of "
                                f"{', '.join(sorted(allowed - TOOLCHAIN))}; move the code that needs it into the app")
    return errors, files


def check(root):
    framework = os.path.join(root, "Packages", "ServiceLinker")
    journal = os.path.join(root, "Packages", "Journal")
    for package in (framework, journal):
        if not os.path.isdir(os.path.join(package, "Sources")):
            return [f"{package}: error: the package is missing"], 0
    own = targets(framework)
    log = targets(journal)
    errors, files = leaks(root, framework, TOOLCHAIN | own | log, "the framework")
    more, counted = leaks(root, journal, TOOLCHAIN | log, "the write-ahead log the framework depends on")
    errors += more
    files += counted
    manifest = os.path.join(framework, "Package.swift")
    with open(manifest, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            column = line.find(".package(")
            if column >= 0 and not line[column:].startswith(JOURNAL_DEPENDENCY):
                errors.append(
                    f"{os.path.relpath(manifest, root)}:{number}:{column + 1}: error: the framework depends on "
                    "another package; it builds on the toolchain and Packages/Journal alone")
    with open(os.path.join(journal, "Package.swift"), encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            column = line.find(".package(")
            if column >= 0:
                errors.append(
                    f"Packages/Journal/Package.swift:{number}:{column + 1}: error: the write-ahead log depends on "
                    "another package; the framework depends on it, so it builds on the toolchain alone")
    return errors, files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    errors, files = check(os.path.abspath(root))
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"framework: clean ({files} files import only the toolchain, the framework's targets and the write-ahead log's)")


if __name__ == "__main__":
    main()
