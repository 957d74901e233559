"""Prints, for each problem of a stark-search report in the order of the
model's plan, its outcome and whether that outcome follows the recorded
first pick: kept (`first pick`, the problem's winner) exactly where it
verified and ran faster than the upstream lowering in its evaluation (the
last pick, after those of other families that failed), else
`upstream` with the reason; a problem without a first pick (none applies,
or no time was left for it) stays upstream;
a searched problem is `searched` exactly where its search has a winner."""
import json
import sys

report = json.load(open(sys.argv[1]))
problems = {p["problem"]: p for p in report["problems"]}
for name in report["plan"]["order"]:
    p = problems[name]
    first = p.get("first_pick")
    nodes = {n["id"]: n for n in p.get("nodes", [])}
    if p.get("budget_seconds", 0) > 0:
        ok = (p["outcome"] == "searched") == (p.get("winner") is not None)
    elif first is None:
        ok = p["outcome"] == "upstream" and (
            "no first pick" in p["why"] or
            "no time left for its first pick" in p["why"])
    else:
        pick = nodes.get(first["id"], {})
        faster = (first["status"] == "ok" and
                  pick.get("seconds", 0) < p.get("baseline_seconds", 0))
        kept = p["outcome"] == "first pick"
        ok = (kept == faster == first["kept"] and
              (p.get("winner") == first["id"]) == kept and
              (kept or "first pick slower than upstream" in p["why"] or
               "first pick failed" in p["why"]))
    print(f"#{p['rank']} {name} {p['op']}: {p['outcome']}, "
          f"{'consistent' if ok else 'INCONSISTENT'}")
