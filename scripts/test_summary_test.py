#!/usr/bin/env python3
"""Pins how `make test` counts: run by `make check`."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_summary.py")

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="TestResults">
{cases}
</testsuite></testsuites>
"""


def case(classname, name, body=""):
    return f'<testcase classname="{classname}" name="{name}">{body}</testcase>'


class TestSummaryTests(unittest.TestCase):
    def summarize(self, listed, cases, status=0, write_report=True):
        with tempfile.TemporaryDirectory() as folder:
            listing = os.path.join(folder, "list.txt")
            with open(listing, "w", encoding="utf-8") as handle:
                handle.write("\n".join(listed) + "\n")
            report = os.path.join(folder, "xunit-swift-testing.xml")
            if write_report:
                with open(report, "w", encoding="utf-8") as handle:
                    handle.write(REPORT.format(cases="\n".join(cases)))
            run = subprocess.run(
                [sys.executable, SCRIPT, "--status", str(status), "--list", listing,
                 os.path.join(folder, "xunit.xml"), report],
                capture_output=True, text=True)
            return run.returncode, run.stdout.strip().splitlines()[-1], run.stderr

    def test_every_listed_test_reported_passing_is_counted_once(self):
        code, line, _ = self.summarize(
            ["A.one()", "A.Suite/two()"], [case("A", "one()"), case("A.Suite", "two()")])
        self.assertEqual((code, line), (0, "2 passed, 0 failed"))

    def test_a_test_the_runner_never_reported_counts_as_failed(self):
        code, line, errors = self.summarize(["A.one()", "A.crashed()"], [case("A", "one()")])
        self.assertEqual((code, line), (1, "1 passed, 1 failed"))
        self.assertIn("A.crashed()", errors)

    def test_no_report_at_all_fails_every_listed_test(self):
        code, line, _ = self.summarize(["A.one()", "A.two()"], [], status=1, write_report=False)
        self.assertEqual((code, line), (1, "0 passed, 2 failed"))

    def test_failures_and_skips_are_counted(self):
        code, line, _ = self.summarize(
            ["A.one()", "A.two()", "A.three()"],
            [case("A", "one()", "<failure message='x'/>"), case("A", "two()", "<skipped>why</skipped>"),
             case("A", "three()")])
        self.assertEqual((code, line), (1, "1 passed, 1 failed, 1 skipped"))

    def test_two_tests_with_one_name_are_matched_by_count(self):
        listed = ["A.same()/One.swift:3:2", "A.same()/Two.swift:8:2"]
        self.assertEqual(self.summarize(listed, [case("A", "same()"), case("A", "same()")])[1], "2 passed, 0 failed")
        self.assertEqual(self.summarize(listed, [case("A", "same()")])[1], "1 passed, 1 failed")

    def test_a_failing_exit_status_with_all_passing_counts_one_failure(self):
        code, line, _ = self.summarize(["A.one()"], [case("A", "one()")], status=1)
        self.assertEqual((code, line), (1, "1 passed, 1 failed"))


if __name__ == "__main__":
    unittest.main()
