#!/usr/bin/env python3
"""Computes the ground-truth verdicts of a double build from its two execution logs.

usage: truth.py DIR            print DIR's table (old.json, new.json, aquery.pb)
       truth.py --check DIR    exit 1 unless DIR/truth.tsv has the same verdicts
       truth.py --write DIR    rewrite DIR/truth.tsv
       truth.py --keep KEEP DIR
                               copy into DIR/outputs the outputs of the root
                               causes that differ, from KEEP (build-twice.sh's
                               BUILD_TWICE_KEEP of the same run)

The table has one row per spawn with outputs, keyed by the exec path of the
first of its listedOutputs, sorted by that path:

    output  target  mnemonic  verdict  cause  note

The verdict compares the spawn's two runs, in this order:
  command_changed      the argv differs
  environment_changed  the environment differs
  input_changed        an input differs (digest, or present in one run only)
                       that no spawn produced: a source file, a status file,
                       a file written by Bazel itself (params, symlinks)
  downstream           only inputs that spawns produced differ, and the
                       outputs differ too
  absorbed             only inputs that spawns produced differ, and the
                       outputs are identical
  nondeterministic     nothing above differs, but the outputs do
  identical            nothing differs

The target comes from aquery.pb (the action that declares the output), or
for actions of other repositories, which `aquery //...` leaves out, from the
label in the spawn's progress message. cause
and note are written by hand after reviewing each row against the workspace;
--write keeps them for outputs already in truth.tsv and writes "?" for new
rows. This script uses only Python's standard library and shares no code with
Ahab, so that it is an independent check of `ahab diff`.
"""

import json
import os
import re
import shutil
import sys

HEADER = ["output", "target", "mnemonic", "verdict", "cause", "note"]
VERDICTS = [
    "identical",
    "nondeterministic",
    "input_changed",
    "command_changed",
    "environment_changed",
    "downstream",
    "absorbed",
]


def read_log(path):
    """Returns the SpawnExec objects of a --execution_log_json_file log.

    Bazel 4.2.3 writes the objects one after another, pretty-printed, with
    nothing between them.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    decoder = json.JSONDecoder()
    spawns, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return spawns
        try:
            spawn, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            sys.exit(f"{path}: spawn {len(spawns) + 1}: {e.msg} at byte {e.pos}, expected a SpawnExec in JSON")
        spawns.append(spawn)


def by_output(path, spawns):
    """Maps each spawn with outputs to the exec path of its first listed output."""
    keyed = {}
    for n, s in enumerate(spawns, 1):
        outputs = s.get("listedOutputs", [])
        if not outputs:
            continue
        if outputs[0] in keyed:
            sys.exit(f"{path}: spawn {n}: output {outputs[0]!r} is also the first output of an earlier spawn, expected one spawn per output")
        keyed[outputs[0]] = s
    return keyed


def digests(files):
    """Maps path to digest for a list of File messages; repeated paths agree."""
    return {f["path"]: f.get("digest", {}).get("hash", "") for f in files}


def environment(s):
    return sorted((v["name"], v.get("value", "")) for v in s.get("environmentVariables", []))


def verdict(old, new, produced):
    if old.get("commandArgs") != new.get("commandArgs"):
        return "command_changed"
    if environment(old) != environment(new):
        return "environment_changed"
    old_in, new_in = digests(old.get("inputs", [])), digests(new.get("inputs", []))
    changed = {p for p in old_in.keys() | new_in.keys() if old_in.get(p) != new_in.get(p)}
    if changed - produced:
        return "input_changed"
    outputs_differ = digests(old.get("actualOutputs", [])) != digests(new.get("actualOutputs", []))
    if changed:
        return "downstream" if outputs_differ else "absorbed"
    return "nondeterministic" if outputs_differ else "identical"


# A minimal reader of the protobuf wire format, enough for analysis_v2's
# ActionGraphContainer: artifacts (1), actions (2), targets (3), path
# fragments (8).

def fields(buf):
    """Yields (field number, wire type, value) for each field of a message."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 2:
            size, i = varint(buf, i)
            if i + size > len(buf):
                raise ValueError(f"field {number} runs past the end of its message")
            value, i = buf[i:i + size], i + size
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"field {number} has wire type {wire}")
        yield number, wire, value


def varint(buf, i):
    value = shift = 0
    while True:
        if i >= len(buf):
            raise ValueError("truncated varint")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def packed(wire, value):
    """The values of a repeated uint32, packed or not."""
    if wire == 0:
        return [value]
    out, i = [], 0
    while i < len(value):
        v, i = varint(value, i)
        out.append(v)
    return out


def targets_by_output(path):
    """Maps each action output's exec path to the label of its target."""
    with open(path, "rb") as f:
        data = f.read()
    artifacts, actions, targets, fragments = {}, [], {}, {}
    try:
        for number, _, value in fields(data):
            if number == 1:
                a = {n: v for n, _, v in fields(value)}
                # Bazel 4.2.3 names the path by fragment id (2); older
                # dumps carried the exec path itself.
                artifacts[a.get(1, 0)] = a.get(2, 0)
            elif number == 2:
                target, outputs = 0, []
                for n, w, v in fields(value):
                    if n == 1:
                        target = v
                    elif n == 9:
                        outputs += packed(w, v)
                actions.append((target, outputs))
            elif number == 3:
                t = {n: v for n, _, v in fields(value)}
                targets[t.get(1, 0)] = t.get(2, b"").decode()
            elif number == 8:
                p = {n: v for n, _, v in fields(value)}
                fragments[p.get(1, 0)] = (p.get(2, b"").decode(), p.get(3, 0))
    except ValueError as e:
        sys.exit(f"{path}: {e}, expected an ActionGraphContainer")

    def exec_path(ref):
        if isinstance(ref, bytes):
            return ref.decode()
        parts = []
        while ref:
            label, ref = fragments[ref]
            parts.append(label)
        return "/".join(reversed(parts))

    labels = {}
    for target, outputs in actions:
        for o in outputs:
            labels[exec_path(artifacts[o])] = targets.get(target, "?")
    return labels


def label_in_message(spawn):
    """The label in a spawn's progress message ("Executing genrule @r//p:t"),
    for actions `aquery //...` leaves out: those of other repositories."""
    m = re.search(r"(?:^|\s)((?:@[\w.~+-]*)?//[\w./+-]*:[^\s]+)", spawn.get("progressMessage", ""))
    return m.group(1) if m else "?"


def read_truth(path):
    """Reads a truth.tsv into rows of HEADER fields."""
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines[0].split("\t") != HEADER:
        sys.exit(f"{path}: line 1: header {lines[0]!r}, expected {chr(9).join(HEADER)!r}")
    if lines[-1] == "":
        lines.pop()  # after the final newline
    for n, line in enumerate(lines[1:], 2):
        row = line.split("\t")
        if len(row) != len(HEADER):
            sys.exit(f"{path}: line {n}: {len(row)} fields, expected {len(HEADER)}")
        rows.append(row)
    return rows


def compute(d):
    old_path, new_path = os.path.join(d, "old.json"), os.path.join(d, "new.json")
    old, new = read_log(old_path), read_log(new_path)
    old_keyed, new_keyed = by_output(old_path, old), by_output(new_path, new)
    if old_keyed.keys() != new_keyed.keys():
        only = sorted(old_keyed.keys() ^ new_keyed.keys())
        sys.exit(f"{d}: the two builds ran different spawns, e.g. {only[0]!r}, expected the same graph twice")
    produced = {f["path"] for s in old + new for f in s.get("actualOutputs", [])}
    labels = targets_by_output(os.path.join(d, "aquery.pb"))
    rows = []
    for output in sorted(old_keyed):
        o, n = old_keyed[output], new_keyed[output]
        rows.append([output, labels.get(output) or label_in_message(o), o.get("mnemonic", ""), verdict(o, n, produced)])
    return rows


def main(argv):
    try:
        run(argv)
    except OSError as e:
        sys.exit(f"{e.filename}: {e.strerror}, expected the output of build-twice.sh")


# ROOT_VERDICTS are the verdicts of root causes, whose outputs --keep keeps;
# a downstream output only repeats its origin's difference.
ROOT_VERDICTS = {"nondeterministic", "input_changed", "command_changed", "environment_changed"}

# MAX_KEPT bounds the size of one kept output: the corpus is committed.
MAX_KEPT = 64 << 10

BIN = re.compile(r"^bazel-out/[^/]+/bin/")


def keep(kept, d):
    """Copies into d/outputs/old and d/outputs/new, as bazel-bin holds them,
    every output of a root cause whose digest differs between the logs, from
    kept/old and kept/new (copies of each build's bazel-bin), with the
    ahab-build.json that describes each build. Everything in d/outputs is
    replaced."""
    old_path, new_path = os.path.join(d, "old.json"), os.path.join(d, "new.json")
    old, new = by_output(old_path, read_log(old_path)), by_output(new_path, read_log(new_path))
    rows = {row[0]: row for row in read_truth(os.path.join(d, "truth.tsv"))}
    out = os.path.join(d, "outputs")
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for side in ("old", "new"):
        os.makedirs(os.path.join(tmp, side))
        shutil.copyfile(os.path.join(kept, side, "ahab-build.json"), os.path.join(tmp, side, "ahab-build.json"))
    n = 0
    for output in sorted(old):
        row = rows.get(output)
        if row is None or row[3] not in ROOT_VERDICTS or output not in new:
            continue
        old_files, new_files = digests(old[output].get("actualOutputs", [])), digests(new[output].get("actualOutputs", []))
        for path in sorted(old_files.keys() & new_files.keys()):
            if old_files[path] == new_files[path]:
                continue
            rel = BIN.sub("", path)
            if rel == path:
                print(f"{path}: not under bazel-out/*/bin, not kept", file=sys.stderr)
                continue
            sources = [os.path.join(kept, side, rel) for side in ("old", "new")]
            if any(os.path.getsize(src) > MAX_KEPT for src in sources):
                print(f"{path}: over {MAX_KEPT} bytes, not kept", file=sys.stderr)
                continue
            for side, src in zip(("old", "new"), sources):
                dst = os.path.join(tmp, side, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
            n += 1
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    print(f"{d}: kept both builds' versions of {n} outputs in {out}")


def run(argv):
    mode = "print"
    if argv and argv[0] == "--keep":
        if len(argv) != 3:
            sys.exit(__doc__.split("\n\n")[1])
        keep(argv[1], argv[2])
        return
    if argv and argv[0] in ("--check", "--write"):
        mode, argv = argv[0][2:], argv[1:]
    if len(argv) != 1:
        sys.exit(__doc__.split("\n\n")[1])
    d = argv[0]
    truth_path = os.path.join(d, "truth.tsv")
    computed = compute(d)
    known = {}
    if os.path.exists(truth_path):
        known = {row[0]: row for row in read_truth(truth_path)}
    elif mode == "check":
        sys.exit(f"{truth_path}: missing")
    if mode == "check":
        differ = 0
        for row in computed:
            want = known.pop(row[0], None)
            if want is None:
                print(f"{truth_path}: no row for {row[0]} ({' '.join(row[1:])})", file=sys.stderr)
                differ += 1
            elif want[:4] != row:
                print(f"{truth_path}: {row[0]}: has {' '.join(want[1:4])}, the logs give {' '.join(row[1:])}", file=sys.stderr)
                differ += 1
        for output in sorted(known):
            print(f"{truth_path}: {output}: no such spawn in the logs", file=sys.stderr)
            differ += 1
        if differ:
            sys.exit(1)
        print(f"{d}: {len(computed)} rows agree with truth.tsv")
        return
    lines = ["\t".join(HEADER)]
    for row in computed:
        cause, note = "?", ""
        if row[0] in known:
            cause, note = known[row[0]][4], known[row[0]][5]
            if known[row[0]][3] != row[3]:
                print(f"{row[0]}: verdict was {known[row[0]][3]}, now {row[3]}: review its cause and note", file=sys.stderr)
        lines.append("\t".join(row + [cause, note]))
    text = "\n".join(lines) + "\n"
    if mode == "write":
        tmp = truth_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, truth_path)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
