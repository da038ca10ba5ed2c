#!/usr/bin/env python3
"""Joins mlperf-lint's JSON findings on the real-world corpus with the hand
labels in corpus.tsv and prints precision and recall per check and overall.

A finding counts as a true positive on a line labelled `yes` for its check, as
a false positive on a line labelled `no` for its check or not labelled at all
(those are listed, to be labelled); a `yes` line without that finding is a
false negative; `unclear` lines count for nothing. Run through score.sh."""
import argparse
import collections
import json
import os
import re
import sys

PREFIX = "mlperf-"


def short(check):
    return check[len(PREFIX):] if check.startswith(PREFIX) else check


def read_tsv(path, columns):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) < columns:
                sys.exit(f"{path}:{n}: expected {columns} tab-separated columns, found {len(cells)}")
            rows.append((n, cells))
    return rows


class Row:
    def __init__(self, cells):
        self.name, self.repo, self.commit, self.checkout, paths, _ = cells[:6]
        self.paths = paths.split()


def load_findings(rows, results, checkouts):
    """(repo, path, line, check) -> message; and per repo the TUs that failed."""
    findings, failed = {}, collections.defaultdict(dict)
    for row in rows:
        base = os.path.join(checkouts, row.checkout)
        try:
            with open(os.path.join(results, row.name + ".json"), encoding="utf-8") as f:
                diags = json.load(f).get("diagnostics", [])
        except (OSError, ValueError) as e:
            sys.exit(f"score.py: cannot read the findings of {row.name}: {e}")
        errors = collections.defaultdict(list)
        for d in diags:
            rel = os.path.relpath(d["file"], base) if d.get("file") else "<command line>"
            if rel.startswith(".."):
                rel = d["file"]
            if d.get("severity") == "error" or d["check"].startswith("clang-diagnostic"):
                errors[rel].append(d["message"])
            elif d["check"].startswith(PREFIX):
                findings.setdefault((row.repo, rel, int(d["line"]), short(d["check"])), d["message"])
        try:
            with open(os.path.join(results, row.name + ".stderr"), encoding="utf-8", errors="replace") as f:
                for tu in re.findall(r"^Error while processing (.*)\.$", f.read(), re.M):
                    rel = os.path.relpath(tu, base)
                    # The JSON does not say which file an error in a header came from.
                    msgs = errors.get(rel) or sorted({m for ms in errors.values() for m in ms})
                    failed[row.repo][rel] = msgs
        except OSError:
            pass
    return findings, failed


def reach(key, rows, failed, missing, checkouts):
    """Where a labelled line sits: in a linted file that compiled or not, in a
    header that only failing files include, or in a file no linted file reaches."""
    repo, path = key[0], key[1]
    tus = {(r.checkout, p) for r in rows if r.repo == repo for p in r.paths}
    bad = failed.get(repo, {})
    if any(p == path for _, p in tus):
        if path in bad:
            return "in a linted file with a missing include" if (repo, path) in missing \
                else "in a linted file that did not compile"
        return "in a linted file that compiled"
    name = os.path.basename(path)
    includers = []
    for checkout, p in tus:
        try:
            with open(os.path.join(checkouts, checkout, p), encoding="utf-8", errors="replace") as f:
                if re.search(r'#\s*include\s*[<"]([^>"]*/)?' + re.escape(name) + '[>"]', f.read()):
                    includers.append(p)
        except OSError:
            pass
    if not includers:
        return "in a file no linted file includes directly"
    if all(p in bad for p in includers):
        return "in a header of linted files that did not compile"
    return "in a header of a linted file that compiled"


def ratio(a, b):
    return f"{a / b:.2f}" if b else "  - "


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repos")
    ap.add_argument("corpus")
    ap.add_argument("results")
    ap.add_argument("checkouts")
    ap.add_argument("--only", default="")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()

    only = set(filter(None, a.only.split(",")))
    rows = [Row(c) for _, c in read_tsv(a.repos, 6) if not only or c[0] in only]
    findings, failed = load_findings(rows, a.results, a.checkouts)

    labels, commits = {}, {r.repo: r.commit for r in rows}
    for n, c in read_tsv(a.corpus, 7):
        repo, commit, path, line, check, label, reason = c[:7]
        if label not in ("yes", "no", "unclear"):
            sys.exit(f"{a.corpus}:{n}: label must be yes, no or unclear, not '{label}'")
        if repo not in commits:
            continue
        if commits[repo] != commit:
            print(f"warning: {a.corpus}:{n}: labelled at {commit[:12]}, repos.tsv has {commits[repo][:12]}")
        key = (repo, path, int(line), short(check))
        if key in labels:
            sys.exit(f"{a.corpus}:{n}: {repo} {path}:{line} {check} is labelled twice")
        labels[key] = (label, reason)

    stats = collections.defaultdict(lambda: collections.Counter())
    unlabelled, misses, wrong = [], [], []
    for key, msg in sorted(findings.items()):
        label, reason = labels.get(key, (None, ""))
        if label == "yes":
            stats[key[3]]["tp"] += 1
        elif label == "no":
            stats[key[3]]["fp"] += 1
            wrong.append((key, reason))
        elif label is None:
            stats[key[3]]["fp"] += 1
            stats[key[3]]["unlabelled"] += 1
            unlabelled.append((key, msg))
    for key, (label, reason) in sorted(labels.items()):
        if label == "yes" and key not in findings:
            stats[key[3]]["fn"] += 1
            misses.append((key, reason))

    print(f"{'check':34} {'TP':>4} {'FP':>4} {'FN':>4} {'prec':>5} {'recall':>6}  (FP of which unlabelled)")
    total = collections.Counter()
    for check in sorted(stats):
        s = stats[check]
        total.update(s)
        print(f"{check:34} {s['tp']:4} {s['fp']:4} {s['fn']:4} {ratio(s['tp'], s['tp'] + s['fp']):>5} "
              f"{ratio(s['tp'], s['tp'] + s['fn']):>6}  ({s['unlabelled']})")
    print(f"{'overall':34} {total['tp']:4} {total['fp']:4} {total['fn']:4} "
          f"{ratio(total['tp'], total['tp'] + total['fp']):>5} {ratio(total['tp'], total['tp'] + total['fn']):>6}"
          f"  ({total['unlabelled']})")
    counts = collections.Counter(l for l, _ in labels.values())
    print(f"labelled lines: {sum(counts.values())} (yes {counts['yes']}, no {counts['no']}, "
          f"unclear {counts['unclear']}) in {len({k[0] for k in labels})} repositories")

    nfailed = sum(len(v) for v in failed.values())
    missing = {(repo, tu) for repo, tus in failed.items() for tu, msgs in tus.items()
               if any("file not found" in m for m in msgs)}
    print(f"files that did not compile: {nfailed} ({len(missing)} with a missing include)")
    for repo in sorted(failed):
        for tu, msgs in sorted(failed[repo].items()):
            print(f"  {repo} {tu}: {'; '.join(msgs[:3]) if msgs else 'error'}")
    where = collections.Counter()
    for key in (k for k, (l, _) in labels.items() if l == "yes"):
        where[reach(key, rows, failed, missing, a.checkouts)] += 1
    print("yes lines by where they are: " + ", ".join(f"{n} {w}" for w, n in where.most_common()))

    if unlabelled:
        print(f"\nunlabelled findings ({len(unlabelled)}), as corpus.tsv lines to complete:")
        for (repo, path, line, check), msg in unlabelled:
            print(f"{repo}\t{commits[repo]}\t{path}\t{line}\t{check}\t?\t{msg}")
    print(f"\nfalse positives (labelled no): {len(wrong)}")
    if a.v:
        for (repo, path, line, check), reason in wrong:
            print(f"  {repo} {path}:{line} {check}: {reason}")
    print(f"\nfalse negatives: {len(misses)}")
    if a.v:
        for key, reason in misses:
            repo, path, line, check = key
            print(f"  {repo} {path}:{line} {check}: {reason} [{reach(key, rows, failed, missing, a.checkouts)}]")


if __name__ == "__main__":
    main()
