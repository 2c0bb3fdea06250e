#!/usr/bin/env python3
"""Checks that REWRITTEN is ORIGINAL plus insertions within lines: the same
number of lines, and each original line a subsequence of its rewritten
line (what sonde promises: every line keeps its number)."""
import sys


def subsequence(small, big):
    it = iter(big)
    return all(c in it for c in small)


def main():
    orig = open(sys.argv[1], encoding="utf-8").read().split("\n")
    new = open(sys.argv[2], encoding="utf-8").read().split("\n")
    if len(orig) != len(new):
        print("error: %d lines became %d" % (len(orig), len(new)))
        return 1
    for n, (a, b) in enumerate(zip(orig, new), 1):
        if not subsequence(a, b):
            print("error: line %d is not a subsequence of its rewritten line"
                  % n)
            print("  original:  " + a)
            print("  rewritten: " + b)
            return 1
    changed = sum(1 for a, b in zip(orig, new) if a != b)
    print("insertions only: %d lines, %d instrumented" % (len(orig), changed))
    return 0


sys.exit(main())
