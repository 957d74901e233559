#!/usr/bin/env python3
"""same-tree.py A.json B.json: do two stark-search reports hold the same
search? Compares, per problem, every node's place in the tree and what the
agents said (strategy, params, plan, changed part, author, status) and the
winner; times differ between runs and are not compared. Prints the first
difference and exits 1, or prints "same tree" and the node count."""

import json
import sys

KEYS = ("id", "parent", "strategy", "params", "plan", "changed_part",
        "author", "status")


def shape(path):
    with open(path) as f:
        report = json.load(f)
    return [(p["problem"], [tuple(json.dumps(n.get(k), sort_keys=True)
                                  for k in KEYS) for n in p.get("nodes", [])],
             p.get("winner")) for p in report["problems"]]


a, b = shape(sys.argv[1]), shape(sys.argv[2])
if len(a) != len(b):
    sys.exit("different problem counts: %d vs %d" % (len(a), len(b)))
nodes = 0
for (pa, na, wa), (pb, nb, wb) in zip(a, b):
    if pa != pb:
        sys.exit("different problems: %s vs %s" % (pa, pb))
    for x, y in zip(na, nb):
        if x != y:
            sys.exit("%s differs at node %s: %s vs %s" % (pa, x[0], x, y))
    if len(na) != len(nb):
        sys.exit("%s: %d nodes vs %d" % (pa, len(na), len(nb)))
    if wa != wb:
        sys.exit("%s: winner %s vs %s" % (pa, wa, wb))
    nodes += len(na)
print("same tree: %d nodes" % nodes)
