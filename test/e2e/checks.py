"""What the end-to-end check scripts share (check_example.py, check_torch.py
and ../torch-programs/check_program.py): a tally of checks that says each
failure as it happens and ends on the plain 'N passed, N failed' line, the
records of a trace directory, and the checks of records that more than one
of them makes.
"""
import collections
import json
import subprocess
import sys

failures, checks = [], 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def done(note=""):
    """The closing line, and the exit code: 1 if any check failed."""
    print(f"{checks - len(failures)} passed, {len(failures)} failed{note}")
    sys.exit(1 if failures else 0)


def export(sonde, traces):
    """Every record of a trace directory, as `sonde export --format jsonl`."""
    p = subprocess.run([sonde, "export", traces, "--format", "jsonl"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: sonde export {traces} exited with {p.returncode}: {p.stderr.strip()}")
    return [json.loads(l) for l in p.stdout.splitlines()]


def region_key(r):
    return f"{r['cat']}/{r['name']}"


def check_ended(name, recs):
    end = recs[-1]
    check(end["kind"] == "process" and end.get("how") == "exit" and end.get("dropped") == 0,
          f"{name}: the process ended normally, nothing dropped")


def check_counts(name, recs, expect):
    """Exactly the regions (cat/name) and the watches (name) that expect
    counts: as many records of each, and no other."""
    for kind, key, want in (("region", region_key, expect["regions"]),
                            ("watch", lambda r: r["name"], expect["watches"])):
        got = collections.Counter(key(r) for r in recs if r["kind"] == kind)
        for k, n in want.items():
            check(got[k] == n, f"{name}: {kind} {k}: {got[k]} records, expected {n}")
        extra = set(got) - set(want)
        check(not extra, f"{name}: no unexpected {kind} records ({sorted(extra)})")


def check_watch_shapes(name, recs, watch_shapes):
    """The shapes recorded by tensor watches: watch -> {shape JSON: count}."""
    for k, shapes in watch_shapes.items():
        got = collections.Counter(json.dumps((r.get("value") or {}).get("shape"))
                                  for r in recs if r["kind"] == "watch" and r["name"] == k)
        check(dict(got) == shapes, f"{name}: {k} shapes {dict(got)}, expected {shapes}")


def check_api_arg_shapes(name, api, api_arg_shapes):
    """The argument shapes of API calls' pre records: function ->
    {call_args with each tensor as its shape, as JSON: count}."""
    for fn, arg_shapes in api_arg_shapes.items():
        got = collections.Counter(
            json.dumps({a: v.get("shape") if isinstance(v, dict) else v
                        for a, v in r["call_args"].items()}, sort_keys=True)
            for r in api if r["function"] == fn and r["phase"] == "pre")
        want = {json.dumps(json.loads(a), sort_keys=True): n
                for a, n in arg_shapes.items()}
        check(dict(got) == want, f"{name}: {fn}: argument shapes {dict(got)}, expected {want}")
