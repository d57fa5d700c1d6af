#!/usr/bin/env python3
"""Summarises an Autobahn|Testsuite report (the fuzzing client's index.json).

    scripts/autobahn-summary.py REPORT_DIR/index.json

Prints, per agent, how many cases ended OK, NON-STRICT, INFORMATIONAL,
UNIMPLEMENTED or FAILED (a case fails when its behaviour or its closing
behaviour is FAILED), lists the failed cases, and ends with the line
"N passed, N failed". Exits 1 when a case failed, 2 when there is no report.
"""

import collections
import json
import sys


def case_key(case_id):
    return [int(part) for part in case_id.split(".")]


def outcome(result):
    """One word per case: FAILED wins over the other behaviours."""
    behaviours = (result.get("behavior"), result.get("behaviorClose"))
    if "FAILED" in behaviours:
        return "FAILED"
    return result.get("behavior", "UNKNOWN")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as report:
            agents = json.load(report)
    except FileNotFoundError:
        print(f"autobahn: no report at {argv[1]}; see wstest.log beside it", file=sys.stderr)
        return 2
    if not agents:
        print("autobahn: the report lists no agent", file=sys.stderr)
        return 2

    total_passed = total_failed = 0
    for agent, cases in sorted(agents.items()):
        counts = collections.Counter(outcome(result) for result in cases.values())
        for case_id in sorted(cases, key=case_key):
            result = cases[case_id]
            if outcome(result) == "FAILED":
                print(f"FAILED {case_id}: behavior={result.get('behavior')} "
                      f"close={result.get('behaviorClose')} "
                      f"remoteCloseCode={result.get('remoteCloseCode')}")
        listed = ", ".join(f"{counts[name]} {name}"
                           for name in ("OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"))
        others = sorted(set(counts) - {"OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"})
        if others:
            listed += ", " + ", ".join(f"{counts[name]} {name}" for name in others)
        print(f"{agent}: {len(cases)} cases: {listed}")
        total_failed += counts["FAILED"]
        total_passed += len(cases) - counts["FAILED"]
    print(f"{total_passed} passed, {total_failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
