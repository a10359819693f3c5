#!/usr/bin/env python3
"""`make bench`'s start-up section: what one till command costs as a process.

For `kiosk --version`, `kiosk open` and `kiosk board` (the release build of
`make release`): the shared objects the loader maps (LD_DEBUG=libs), the
instructions spent outside `main` (two callgrind runs: the whole process, and
`main` alone), and the wall time against a statically linked Swift hello world
and against `sqlite3` inserting one row (WAL, synchronous=FULL) as a process,
each in alternating pairs, median of the ratios. Prints markdown.

usage: startup_bench.py KIOSK WORKDIR [--pairs N]
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time


def run(argv, env=None, stdin=None):
    return subprocess.run(argv, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)


def shared_objects(argv, env):
    """The objects the loader initialised for one run of argv."""
    log = run(argv, env={**env, "LD_DEBUG": "libs"}).stderr.decode(errors="replace")
    return len(set(re.findall(r"calling init: (\S+)", log)))


def instructions(argv, work, env, name):
    """(whole process, before main) in instructions, from one callgrind run:
    the total, less what the call to `main` cost inclusively (glibc's
    `libc_start_call_main`), threads it started included."""
    out = os.path.join(work, f"cg.{name}")
    done = run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], env=env)
    if done.returncode != 0:
        raise SystemExit(f"startup: callgrind failed on {argv}: {done.stderr.decode()[-400:]}")
    total = int(re.search(r"^totals: (\d+)", open(out).read(), re.M).group(1))
    annotated = run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out]).stdout.decode(errors="replace")
    # glibc's frame that calls `main`: its inclusive cost is main's, whatever main is named.
    in_main = 0
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*libc_start_call_main\.h:\(below main\) \[", line)
        if match:
            in_main = max(in_main, int(match.group(1).replace(",", "")))
    # A Swift async main hands its work to other threads (dispatch), whose costs
    # callgrind keeps under their own roots: count them as from `main` on.
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*:start_thread \[", line)
        if match:
            in_main += int(match.group(1).replace(",", ""))
    return total, total - in_main


def wall(argv, env, before=None):
    if before:
        before()
    start = time.perf_counter()
    done = run(argv, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"startup: {argv} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def pairs(first, second, count):
    """Median of first/second over `count` pairs, alternating which goes first; and each side's median in ms."""
    a, b = [], []
    for index in range(count):
        if index % 2 == 0:
            a.append(first()); b.append(second())
        else:
            b.append(second()); a.append(first())
    ratios = [x / y for x, y in zip(a, b)]
    return statistics.median(ratios), statistics.median(a) * 1e3, statistics.median(b) * 1e3


def a_day_as_processes(kiosk, stripped, work, env, tabs=250, every=20):
    """A day of commands each run as a process of its own, as a till run
    from a script does: two restocks, then `tabs` tabs opened, given two
    items and settled, one after another. Every `every`-th command runs
    under callgrind (the stripped binary): instructions from `main` on, their
    mean and most, against the day's first command. Each command replays
    what follows the day's last checkpoint, so the most is the command that
    replayed the most (and the one that then took a checkpoint)."""
    day = os.path.join(work, "day")
    shutil.rmtree(day, ignore_errors=True)
    os.makedirs(day)
    day_env = {**env, "KIOSK_JOURNAL": os.path.join(day, "kiosk.journal")}
    commands = [["restock", "beans", "1000"], ["restock", "cup", "1000"]]
    for tab in range(1, tabs + 1):
        commands += [["open", f"Guest{tab}"], ["add", str(tab), "Espresso"], ["add", str(tab), "Cold Brew"],
                     ["settle", str(tab)]]
    measured = []
    for number, arguments in enumerate(commands):
        if number % every == 0:
            whole, before_main = instructions([stripped, *arguments], work, day_env, "day")
            measured.append(whole - before_main)
        else:
            done = run([kiosk, *arguments], env=day_env)
            if done.returncode != 0:
                raise SystemExit(f"startup: {' '.join(arguments)} failed: {done.stderr.decode()[-400:]}")
    first, mean, most = measured[0], sum(measured) / len(measured), max(measured)
    return (f"A day as processes: {len(commands):,} commands (two restocks, then {tabs} tabs opened, given two "
            f"items and settled), each `kiosk` a process of its own; every {every}th measured, instructions from "
            f"`main` on: mean {mean:,.0f}, most {most:,}, against {first:,} for the day's first: "
            f"mean ÷ first {mean / first:.2f}, most ÷ first {most / first:.2f}.")


def main():
    kiosk, work = sys.argv[1], sys.argv[2]
    count = int(sys.argv[sys.argv.index("--pairs") + 1]) if "--pairs" in sys.argv else 40
    os.makedirs(work, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    journal = os.path.join(work, "kiosk.journal")
    env_kiosk = {**env, "KIOSK_JOURNAL": journal}
    subprocess.run([kiosk, "open", "Warm"], env=env_kiosk, check=True, stdout=subprocess.DEVNULL)

    hello_source = os.path.join(work, "hello.swift")
    hello = os.path.join(work, "hello")
    with open(hello_source, "w") as file:
        file.write('print("hello")\n')
    built = run(["swiftc", "-O", "-static-stdlib", hello_source, "-o", hello])
    if built.returncode != 0:
        raise SystemExit(f"startup: could not build the static hello world: {built.stderr.decode()[-400:]}")

    commands = [("kiosk --version", [kiosk, "--version"]), ("kiosk open", [kiosk, "open", "Ada"]),
                ("kiosk board", [kiosk, "board"])]
    lines = ["| command | shared objects loaded | instructions, whole process | before `main` | from `main` on |",
             "|---|---|---|---|---|"]
    stripped = os.path.join(work, "kiosk-stripped")
    shutil.copy(kiosk, stripped)
    subprocess.run(["objcopy", "--strip-debug", stripped], check=False)
    have_valgrind = shutil.which("valgrind") is not None
    for name, argv in commands + [("static hello world", [hello])]:
        objects = shared_objects(argv, env_kiosk)
        if have_valgrind:
            probe = [stripped if a == kiosk else a for a in argv]
            whole, before_main = instructions(probe, work, env_kiosk, name.replace(" ", "_"))
            cells = [f"{whole:,}", f"{before_main:,}", f"{whole - before_main:,}"]
        else:
            cells = ["—", "—", "valgrind is not installed"]
        lines.append(f"| `{name}` | {objects} | " + " | ".join(cells) + " |")
    print("\n".join(lines))
    print()
    if have_valgrind:
        print(a_day_as_processes(kiosk, stripped, work, env))
        print()

    rows = ["| pair | ratio (median of pairs) | ms | ms |", "|---|---|---|---|"]
    version, ms_version, ms_hello = pairs(lambda: wall([kiosk, "--version"], env), lambda: wall([hello], env), count)
    rows.append(f"| `kiosk --version` ÷ static hello world | {version:.2f} | {ms_version:.2f} | {ms_hello:.2f} |")
    if shutil.which("sqlite3"):
        database = os.path.join(work, "insert.db")
        subprocess.run(["sqlite3", database, "PRAGMA journal_mode=WAL; CREATE TABLE t(x TEXT);"], check=True,
                       stdout=subprocess.DEVNULL)
        insert = ["sqlite3", database, "PRAGMA synchronous=FULL; INSERT INTO t VALUES('Ada');"]
        opened, ms_open, ms_insert = pairs(lambda: wall([kiosk, "open", "Ada"], env_kiosk), lambda: wall(insert, env),
                                           count)
        rows.append(f"| `kiosk open` ÷ `sqlite3` insert (WAL, synchronous=FULL) | {opened:.2f} | {ms_open:.2f} | "
                    f"{ms_insert:.2f} |")
    else:
        rows.append("| `kiosk open` ÷ `sqlite3` insert | sqlite3 is not installed | — | — |")
    print(f"Wall time as a process, {count} alternating pairs:\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
