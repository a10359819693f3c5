#!/usr/bin/env python3
"""The one total line of `make test`, from swift test's xUnit reports.

Every test `swift test list` names must appear in a report: one that does not
(the runner crashed before it finished) counts as failed, and is named. Swift
Testing writes `<name>-swift-testing.xml`, XCTest `<name>.xml`; a missing file
is the same as a report of no tests.

Prints `N passed, N failed, N skipped` alone on the last line; exits non-zero
when anything failed or `swift test` itself exited non-zero.
"""
import argparse
import os
import re
import sys
from collections import Counter
import xml.etree.ElementTree as ET


def key(classname: str, name: str) -> str:
    # `swift test list` writes `Module.test()` for a free test and
    # `Module.Suite/test()` (XCTest: `Module.Class/testX`) for a member.
    return f"{classname}/{name}" if "." in classname else f"{classname}.{name}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--status", type=int, default=0, help="swift test's exit status")
    parser.add_argument("--list", required=True, help="the output of `swift test list`")
    parser.add_argument("reports", nargs="+", help="xUnit files; missing ones report nothing")
    options = parser.parse_args()

    # Two tests with one name in one module are listed with their source
    # location (`Module.test()/File.swift:10:2`), which the report does not carry:
    # such names are matched by count.
    with open(options.list, encoding="utf-8") as listing:
        expected = Counter(re.sub(r"/[^/]+\.swift:\d+:\d+$", "", line.strip()) for line in listing if line.strip())

    outcomes: list[tuple[str, str]] = []
    unreadable = []
    for path in options.reports:
        if not os.path.exists(path):
            continue
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as error:
            unreadable.append(f"{path}: {error}")
            continue
        for case in root.iter("testcase"):
            test = key(case.get("classname", ""), case.get("name", ""))
            if case.find("failure") is not None or case.find("error") is not None:
                outcomes.append((test, "failed"))
            elif case.find("skipped") is not None:
                outcomes.append((test, "skipped"))
            else:
                outcomes.append((test, "passed"))

    missing = sorted((expected - Counter(test for test, _ in outcomes)).elements())
    for test in missing:
        print(f"test: no report for {test}: counted as failed", file=sys.stderr)
    for problem in unreadable:
        print(f"test: unreadable report {problem}", file=sys.stderr)

    counts = Counter(state for _, state in outcomes)
    failed = counts["failed"] + len(missing) + len(unreadable)
    if options.status != 0 and failed == 0:
        print(f"test: swift test exited {options.status} with every test reported as passing: counted as one failure",
              file=sys.stderr)
        failed = 1
    line = f"{counts['passed']} passed, {failed} failed"
    if counts["skipped"]:
        line += f", {counts['skipped']} skipped"
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
