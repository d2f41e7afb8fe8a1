#!/usr/bin/env python3
"""Keeps docs/DESIGN.md true to the code (make lint).

1. The module tables of section 1 ("| module | depends on |" and "| executable | uses |") list
   every target of Package.swift and inspector/Package.swift but the tests, one row each, and
   each row's dependencies are exactly the target's: the targets it depends on by name (in
   backticks; for inspector/, the core's products too), and each product of another package it
   uses (its package or product name anywhere in the cell).
2. Every Swift file the document names (`Name.swift` or a path) exists in the checkout.

Usage: tools/check_design.py [--package-json FILE]... (default: runs `swift package dump-package`
in both packages).
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESIGN = os.path.join(ROOT, "docs", "DESIGN.md")
TABLE_HEADS = ("| module | depends on |", "| executable | uses |")
PACKAGES = (".", "inspector")  # the core, and the inspector's package (which depends on it)
CORE = "dynd"


def package_targets(package_jsons):
    """Every non-test target of the core package and of inspector/'s: its dependencies by name
    (a product of the core that inspector/ uses counts as the target of that name) and the
    products of other packages it uses."""
    if package_jsons:
        texts = [open(path, encoding="utf-8").read() for path in package_jsons]
    else:
        texts = [subprocess.run(["swift", "package", "dump-package"], cwd=os.path.join(ROOT, path),
                                check=True, capture_output=True, text=True).stdout
                 for path in PACKAGES]
    targets = {}
    for text in texts:
        for target in json.loads(text)["targets"]:
            if target["type"] == "test":
                continue
            names, products = set(), []
            for dependency in target["dependencies"]:
                kind, value = next(iter(dependency.items()))
                if kind == "product" and value[1] == CORE:
                    names.add(value[0])
                elif kind == "product":
                    products.append((value[0], value[1]))  # (product, package)
                else:
                    names.add(value[0])
            targets[target["name"]] = (names, products)
    return targets


def table_rows(text):
    """(first cell, second cell, line number) of every row of the module tables."""
    rows, inside = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(TABLE_HEADS):
            inside = True
            continue
        if inside and line.startswith("|---"):
            continue
        if inside and line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[1], number))
        else:
            inside = False
    return rows


def check_modules(text, targets):
    problems, seen = [], {}
    for first, uses, number in table_rows(text):
        names = re.findall(r"`([^`]+)`", first)
        if len(names) != 1:
            problems.append("DESIGN.md:%d: a row names one module, not %r" % (number, first))
            continue
        name = names[0]
        if name in seen:
            problems.append("DESIGN.md:%d: %s has a row already (line %d)"
                            % (number, name, seen[name]))
        seen[name] = number
        if name not in targets:
            problems.append("DESIGN.md:%d: %s is not a target of Package.swift" % (number, name))
            continue
        expected, products = targets[name]
        listed = {word for word in re.findall(r"`([^`]+)`", uses) if word in targets}
        if listed != expected:
            missing = sorted(expected - listed)
            extra = sorted(listed - expected)
            problems.append("DESIGN.md:%d: %s depends on %s%s%s" % (
                number, name, ", ".join(sorted(expected)) or "nothing",
                "; the row lacks " + ", ".join(missing) if missing else "",
                "; the row adds " + ", ".join(extra) if extra else ""))
        for product, package in products:
            if product.lower() not in uses.lower() and package.lower() not in uses.lower():
                problems.append("DESIGN.md:%d: %s uses %s (%s), which the row does not name"
                                % (number, name, product, package))
    for name in sorted(set(targets) - set(seen)):
        problems.append("DESIGN.md: the module tables have no row for %s" % name)
    return problems


def check_files(text):
    files = set()
    for root, _, names in os.walk(ROOT):
        if "/." in root[len(ROOT):]:
            continue
        for name in names:
            files.add(os.path.relpath(os.path.join(root, name), ROOT))
    basenames = {os.path.basename(path) for path in files}
    problems = []
    for cited in sorted(set(re.findall(r"`([\w./-]+\.swift)`", text))):
        if "/" in cited:
            found = any(path == cited or path.endswith("/" + cited) for path in files)
        else:
            found = cited in basenames
        if not found:
            problems.append("DESIGN.md names %s, which the checkout does not contain" % cited)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package-json", action="append",
                        help="the output of `swift package dump-package` (once per package; "
                        "default: run it in . and inspector/)")
    arguments = parser.parse_args()
    text = open(DESIGN, encoding="utf-8").read()
    problems = check_modules(text, package_targets(arguments.package_json)) + check_files(text)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("check_design: %d problem(s)" % len(problems), file=sys.stderr)
        return 1
    print("check_design: the module tables match Package.swift; every named file exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
