#!/usr/bin/env python3
"""The replay lane of the Service Linker framework (docs/replay.md), for any app.

    replay_lane.py --server PATH/TO/REPLAY-EXECUTABLE --recordings PATH/TO/Recordings

Starts one replay server (an app's executable that runs `ReplayServer`), sends
it every recorded step of every recording under the recordings folder
(`<feature>/<fixture>.json`), and compares the bytes of each answer with the
recording's expected answer in canonical form. A second implementation of the
canonical form (Python's json with sorted keys and no spaces), so the lane also
checks that the form is what docs/replay.md says.

Prints one line per recording and a total; exits 1 when any step differs, 2
on a usage error.
"""
import argparse
import json
import pathlib
import select
import subprocess
import sys

TIMEOUT_SECONDS = 10
SERVER = None
RECORDINGS = None
ROOT = pathlib.Path.cwd()


def canonical(value):
    """The compact canonical text: sorted keys, no insignificant space, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pretty(value):
    """The canonical text of a recording file: two spaces of indent, a newline at the end."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key appears twice: {sorted(k for k in set(keys) if keys.count(k) > 1)}")
    return dict(pairs)


def whole_only(text):
    raise ValueError(f"numbers are whole, not {text}")


def load(text):
    """Parses strictly, as the canonical form requires: no duplicate keys, no fractions or exponents."""
    return json.loads(text, object_pairs_hook=no_duplicates, parse_float=whole_only)


def first_difference(recorded, now, path=""):
    """The first path where two decoded JSON values differ, in key order, with both values there."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key in sorted(set(recorded) | set(now)):
            inner = f"{path}.{key}" if path else key
            if key not in recorded or key not in now:
                return inner, canonical(recorded.get(key, "nothing")), canonical(now.get(key, "nothing"))
            found = first_difference(recorded[key], now[key], inner)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(now, list):
        for index, (left, right) in enumerate(zip(recorded, now)):
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        if len(recorded) == len(now):
            return None
        return path, f"{len(recorded)} elements", f"{len(now)} elements"
    if recorded == now and type(recorded) is type(now):
        return None
    return path or "(root)", canonical(recorded), canonical(now)


class Server:
    def __init__(self):
        self.name = SERVER.name
        self.process = subprocess.Popen(
            [str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def ask(self, line):
        try:
            self.process.stdin.write(line.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError(f"{self.name} exited ({self.process.wait()}) before reading a request")
        ready, _, _ = select.select([self.process.stdout], [], [], TIMEOUT_SECONDS)
        if not ready:
            raise RuntimeError(f"{self.name} gave no answer within {TIMEOUT_SECONDS} s")
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"{self.name} exited ({self.process.wait()}): "
                               + self.process.stderr.read().decode("utf-8", "replace").strip())
        return answer.decode("utf-8").rstrip("\n")

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=TIMEOUT_SECONDS)


def shown(path):
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def main():
    global SERVER, RECORDINGS
    parser = argparse.ArgumentParser(description="Send every recorded step through a replay server.")
    parser.add_argument("--server", required=True, help="the app's replay executable")
    parser.add_argument("--recordings", required=True, help="the folder of <feature>/<fixture>.json recordings")
    arguments = parser.parse_args()
    SERVER = pathlib.Path(arguments.server).resolve()
    RECORDINGS = pathlib.Path(arguments.recordings).resolve()
    if not SERVER.exists():
        print(f"replay: {shown(SERVER)} is not built; build it, then run the lane again", file=sys.stderr)
        return 2
    files = sorted(RECORDINGS.glob("*/*.json"))
    if not files:
        print(f"replay: no recordings under {shown(RECORDINGS)}; run 'make record'", file=sys.stderr)
        return 1
    try:
        return run(files)
    except RuntimeError as error:
        print(f"replay: {error}", file=sys.stderr)
        return 1


def run(files):
    server = Server()
    # The server answers a malformed request with an error object and goes on.
    answer = json.loads(server.ask("{ not a request"))
    if set(answer) != {"error"}:
        print(f"replay: a malformed request was answered with {answer}, not an error object", file=sys.stderr)
        return 1
    passed = failed = steps = 0
    for path in files:
        name = f"{path.parent.name}/{path.stem}"
        text = path.read_text(encoding="utf-8")
        try:
            recording = load(text)
        except ValueError as error:
            failed += 1
            print(f"FAIL {name}: not a recording: {error}; run 'make record'")
            continue
        if text != pretty(recording):
            failed += 1
            print(f"FAIL {name}: not in canonical form (docs/replay.md); run 'make record'")
            continue
        state = recording["given"]
        problem = None
        for index, step in enumerate(recording["steps"]):
            steps += 1
            request = {"action": step["action"], "feature": recording["feature"], "state": state}
            expected = canonical({"effects": step["effects"], "outcome": step["outcome"], "state": step["state"]})
            answer = server.ask(canonical(request))
            if answer != expected:
                try:
                    found = first_difference(json.loads(expected), json.loads(answer))
                    where = (f"at {found[0]}: recorded {found[1][:200]}, answered {found[2][:200]}"
                             if found else "in its bytes only")
                except json.JSONDecodeError:
                    where = f"and is not JSON: {answer[:200]}"
                problem = f"step {index} '{step['label']}' (scenario line {step['line']}): the answer differs {where}"
                break
            state = step["state"]
        if problem:
            failed += 1
            print(f"FAIL {name}: {problem}")
        else:
            passed += 1
            print(f"ok   {name} ({len(recording['steps'])} steps)")
    status = server.close()
    print(f"replay: {passed + failed} recordings, {steps} steps sent: {passed} passed, {failed} failed"
          + ("" if status == 0 else f"; the server exited {status}"))
    return 0 if failed == 0 and status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
