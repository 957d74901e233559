"""Checks a stark-search report and its log after a run whose coverage pass
left time: prints, for each problem in the plan's order, what became of it
and whether that is consistent with the search it had again (one that did
not judge the first pick again: the first pick gives way only to a faster
winner, and says what the search found when it stays), then the number of stark-search outcome remarks on each op (one)
and whether the run stayed within total-seconds and its 10%."""
import collections
import json
import re
import sys

report = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
problems = {p["problem"]: p for p in report["problems"]}
for name in report["plan"]["order"]:
    p = problems[name]
    first = p.get("first_pick")
    again = p.get("searched_again")
    if p["outcome"] == "searched":
        nodes = {n["id"]: n for n in p.get("nodes", [])}
        winner = nodes.get(p.get("winner"), {})
        # The search did not judge the first pick again.
        repeated = any(
            n["id"] > 0 and n.get("strategy") == first.get("strategy") and
            n.get("params") == first.get("params")
            for n in p.get("nodes", [])) if first else True
        ok = (first is not None and again is None and not repeated and
              winner.get("speedup", 0) > first.get("speedup", 0))
        what = "searched again, faster than its first pick"
    elif again is not None:
        ok = (p["outcome"] == "first pick" and first["kept"] and
              again["candidates"] >= 1 and
              ("not faster" in again["found"] or again["found"] == "no winner")
              and "searched again with the time the coverage pass left"
              in p["why"])
        what = "searched again, first pick kept"
    else:
        # Not searched again: the time left paid for no search of it.
        ok = p["outcome"] in ("first pick", "upstream")
        what = p["outcome"]
    print(f"{name}: {what}, {'consistent' if ok else 'INCONSISTENT'}")

# Each op's outcome remarks ("stark-search: searched|first pick|upstream").
counts = collections.Counter(
    m.group(1) for m in re.finditer(
        r"(\d+:\d+): remark: stark-search: (?:searched|first pick|upstream):",
        log))
print("remarks per op:", sorted(set(counts.values())))
limit = 1.1 * report["total_seconds"]
print("within total-seconds:", report["summary"]["seconds"] <= limit)
