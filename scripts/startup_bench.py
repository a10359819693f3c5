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


def late_in_the_day(kiosk, stripped, work, env, records=998):
    """`kiosk open` on a day whose journal holds `records` records since its
    last checkpoint (just short of the till's default interval of 1,000, so the
    probe's own open takes none: about the most a command replays), against
    one on a day of two records: instructions from `main` on, and what each
    replayed record adds. Each probe runs on a fresh copy of the day."""
    day = os.path.join(work, "late")
    shutil.rmtree(day, ignore_errors=True)
    os.makedirs(day)
    journal = os.path.join(day, "kiosk.journal")
    # The first record initializes the day; each line adds one.
    opens = "".join(f"open Guest{n}\n" for n in range(1, records))
    done = run([kiosk, "--journal", journal, "shell"], env=env, stdin=opens.encode())
    if done.returncode != 0:
        raise SystemExit(f"startup: could not make the day: {done.stderr.decode()[-400:]}")
    early = os.path.join(work, "early")
    shutil.rmtree(early, ignore_errors=True)
    os.makedirs(early)
    done = run([kiosk, "--journal", os.path.join(early, "kiosk.journal"), "open", "Warm"], env=env)
    if done.returncode != 0:
        raise SystemExit(f"startup: could not begin the early day: {done.stderr.decode()[-400:]}")

    def from_main(folder, name):
        probe = os.path.join(work, f"probe-{name}")
        shutil.rmtree(probe, ignore_errors=True)
        shutil.copytree(folder, probe)
        argv = [stripped, "--journal", os.path.join(probe, "kiosk.journal"), "open", "Ada"]
        whole, before_main = instructions(argv, work, env, name)
        return whole - before_main

    small, large = from_main(early, "early"), from_main(day, "late")
    per_record = (large - small) / (records - 2)
    return (f"`kiosk open` late in a day, {records:,} records since its last checkpoint (what it replays): "
            f"{large:,} instructions from `main` on, against {small:,} on a day of two records; "
            f"{per_record:,.0f} per replayed record.")


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
        print(late_in_the_day(kiosk, stripped, work, env))
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
