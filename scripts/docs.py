#!/usr/bin/env python3
"""`make docs`: every public symbol of the framework and the domain packages has
a `///` summary, and each module with a DocC catalog gets its documentation.

From the built modules (`.build/debug/Modules`), `linkgen symbol-graphs`
(`swift symbolgraph-extract`, run as `linkgen map` runs it) writes each
module's public symbol graph; a public symbol with no doc comment is
an error at its `file:line:column` (members that implement a documented
requirement inherit its documentation, as DocC shows them, and are not
errors). Then `docc convert` builds `<Module>.docc` catalogs into
`.build/docs/<Module>.doccarchive`. Exits 1 on any undocumented symbol or a
failed conversion. Usage: docs.py [--no-archives] [MODULE ...]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The framework's libraries and the domains: what another app or package reads.
MODULES = [
    "CanonicalJSON", "FeatureKit", "VirtualTime", "FeatureTesting", "ScenarioTesting", "_ServiceLinkerTestSupport",
    "DurableStore", "Menu", "Stock", "Tabs", "Payment", "Clock", "Journal", "JournalIO",
]
# Where each module's sources live, to find its catalog.
SOURCES = {name: f"Packages/ServiceLinker/Sources/{name}" for name in MODULES[:7]}
SOURCES.update({name: f"Packages/{name}/Sources/{name}" for name in ["Menu", "Stock", "Tabs", "Payment", "Clock", "Journal"]})
SOURCES["JournalIO"] = "Packages/Journal/Sources/JournalIO"
INHERITING = {"overrides", "defaultImplementationOf", "requirementOf"}


def extract(modules, output):
    """Writes the public symbol graphs of each of `modules` into `output`/<module>, in one
    `linkgen symbol-graphs` run; returns {module: error text} for those that failed.
    linkgen runs symbolgraph-extract as `linkgen map` does (the target, the built modules,
    the module maps of built C targets), so the two never need the same fix twice."""
    linkgen = os.path.join(ROOT, ".build/debug/linkgen")
    if not os.path.isfile(linkgen):
        return {module: f"{linkgen} is not built" for module in modules}
    result = subprocess.run(
        [linkgen, "symbol-graphs", *modules, "--root", ROOT, "--output", output], capture_output=True, text=True)
    if result.returncode == 0:
        return {}
    # linkgen names each failed module (`error: NAME: reason`); a line naming none fails them all.
    lines = (result.stderr or result.stdout).strip().splitlines()
    failures = {}
    for module in modules:
        named = [line for line in lines if line.startswith(f"error: {module}: ")]
        if named or not any(line.startswith(f"error: {other}: ") for line in lines for other in modules):
            failures[module] = "\n".join(named or lines)
    return failures


def undocumented(module, output):
    """`file:line:column: error: …` for each public symbol of `module` without a doc comment."""
    errors = []
    for name in sorted(os.listdir(output)):
        if not (name == f"{module}.symbols.json" or name.startswith(f"{module}@")) or not name.endswith(".json"):
            continue
        with open(os.path.join(output, name)) as handle:
            graph = json.load(handle)
        inheriting = {r["source"] for r in graph.get("relationships", []) if r["kind"] in INHERITING}
        for symbol in graph["symbols"]:
            if "docComment" in symbol or symbol["identifier"]["precise"] in inheriting:
                continue
            location = symbol.get("location", {})
            path = location.get("uri", "").removeprefix("file://")
            position = location.get("position", {})
            relative = os.path.relpath(path, ROOT) if path else module
            errors.append(
                f"{relative}:{position.get('line', 0) + 1}:{position.get('character', 0) + 1}: error: "
                f"public {symbol['kind']['displayName'].lower()} '{'.'.join(symbol['pathComponents'])}' "
                "has no /// summary")
    return errors


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    modules = arguments or MODULES
    errors, archives = [], 0
    with tempfile.TemporaryDirectory() as temporary:
        failures = extract(modules, temporary)
        for module in modules:
            output = os.path.join(temporary, module)
            failure = failures.get(module)
            if failure:
                errors.append(f"{module}: error: no symbol graph (build first: make docs builds): {failure}")
                continue
            errors += undocumented(module, output)
            catalog = os.path.join(ROOT, SOURCES.get(module, ""), f"{module}.docc")
            if "--no-archives" in sys.argv or not os.path.isdir(catalog):
                continue
            os.makedirs(os.path.join(ROOT, ".build", "docs"), exist_ok=True)
            archive = os.path.join(ROOT, ".build", "docs", f"{module}.doccarchive")
            result = subprocess.run(
                ["docc", "convert", catalog, "--additional-symbol-graph-dir", output, "--output-path", archive,
                 "--fallback-display-name", module, "--fallback-bundle-identifier", f"servicelinker.{module}",
                 "--warnings-as-errors"],
                capture_output=True, text=True)
            if result.returncode != 0:
                errors.append(f"{os.path.relpath(catalog, ROOT)}: error: docc convert failed: {result.stderr.strip()}")
            else:
                archives += 1
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"docs: {len(errors)} problems in {len(modules)} modules", file=sys.stderr)
        return 1
    print(f"docs: every public symbol of {len(modules)} modules is documented; {archives} DocC archives in .build/docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
