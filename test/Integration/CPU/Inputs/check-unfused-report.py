"""Prints, for each problem of a stark-search report compared with its ops
alone (compare-unfused), whether the recorded choice follows the recorded
times: unfused exactly where the ops alone took less time by the factor
given as the second argument (the search's min-speedup)."""
import json
import sys

report = json.load(open(sys.argv[1]))
margin = float(sys.argv[2])
for p in report["problems"]:
    u = p.get("unfused")
    if u is None:
        continue
    fused, alone = u.get("fused_seconds"), u.get("alone_seconds")
    ok = (fused is not None and alone is not None and
          (u["chosen"] == "unfused") == (alone * margin < fused) and
          len(u["problems"]) == 2)
    print(f"{p['op']} {p['shapes']}: {'consistent' if ok else 'INCONSISTENT'}"
          f" ({u['chosen']}, {fused}, {alone})")
