#!/usr/bin/env python3
"""Writes the manual pages dynd(1), dynctl(1) and dynd-inspect(1) from the commands' own
argument-parser definitions.

swift-argument-parser's `generate-manual` (the tool behind its GenerateManual plugin) turns each
binary's `--experimental-dump-help` into mdoc: name, synopsis, the discussion and every option
and subcommand. Its EXIT STATUS section is the generic `.Ex -std`, and it has no ENVIRONMENT,
FILES or SEE ALSO. The commands' discussions say those things in paragraphs of a fixed form,
which this script moves into their own sections:

    Exit status: 0 success; 64 usage; ...             -> EXIT STATUS, one entry per status
    Environment: NAME[, NAME] meaning; NAME ...       -> ENVIRONMENT
    Files: PATH meaning; PATH meaning                 -> FILES (with the installed units and docs)

Usage: man_pages.py BIN_DIR OUT_DIR --generator PATH --unit-dir DIR --doc-dir DIR --data-dir DIR
[--date YYYY-MM-DD]. Exits 1 if a page lacks one of the paragraphs (a definition changed form).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

COMMANDS = ("dynd", "dynctl", "dynd-inspect")
AUTHORS = "dynd's maintainers"


def split_items(text: str, starts: str) -> list[str]:
    """`text` cut at each "; " followed by something matching `starts`."""
    return [item.strip() for item in re.split(r";\s+(?=%s)" % starts, text.rstrip(". "))]


def sentence(text: str) -> str:
    """`text` with a capital first letter and a final period, mdoc-escaped."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return escape(text if text.endswith(".") else text + ".")


def escape(text: str) -> str:
    r"""A text line for mdoc: backslashes doubled, a leading dot or quote guarded with \&."""
    text = text.replace("\\", "\\e")
    return "\\&" + text if text[:1] in (".", "'") else text


def tagged_list(entries: list[tuple[str, str]]) -> list[str]:
    lines = [".Bl -tag -width Ds"]
    for head, body in entries:
        lines += [".It " + head, sentence(body)]
    return lines + [".El"]


def exit_section(paragraph: str) -> list[str]:
    entries = []
    for item in split_items(paragraph, r"\d+\s"):
        status, meaning = item.split(None, 1)
        entries.append((status, meaning))
    return [".Sh EXIT STATUS"] + tagged_list(entries)


def environment_section(paragraph: str) -> list[str]:
    entries = []
    for item in split_items(paragraph, r"[A-Z_]+[ ,]"):
        match = re.match(r"([A-Z_]+(?:, [A-Z_]+)*) (.*)", item)
        if not match:
            raise ValueError("environment entry without a variable name: %r" % item)
        names = match.group(1).split(", ")
        entries.append(("Ev " + " , ".join(names), match.group(2)))
    return [".Sh ENVIRONMENT"] + tagged_list(entries)


def files_section(paragraph: str, installed: list[tuple[str, str]]) -> list[str]:
    entries = []
    for item in split_items(paragraph, r"[/$]"):
        path, meaning = item.split(None, 1)
        entries.append(("Pa " + path, meaning))
    return [".Sh FILES"] + tagged_list(entries + [("Pa " + p, m) for p, m in installed])


def see_also(command: str) -> list[str]:
    others = [name for name in COMMANDS if name != command] + ["systemd.socket"]
    refs = [".Xr %s %s" % (name, 5 if name == "systemd.socket" else 1) for name in others]
    return [".Sh SEE ALSO"] + [ref + " ," for ref in refs[:-1]] + [refs[-1]]


def installed_files(command: str, args: argparse.Namespace) -> list[tuple[str, str]]:
    docs = [
        (os.path.join(args.doc_dir, "PROTOCOL.md"), "the wire protocol, with an example per op"),
        (os.path.join(args.data_dir, "schema"), "the JSON schemas of requests, replies and events"),
    ]
    if command != "dynd":
        return docs
    units = [
        (os.path.join(args.unit_dir, "dynd.socket"), "the systemd user unit of the socket"),
        (os.path.join(args.unit_dir, "dynd.service"), "the systemd user unit of the daemon"),
    ]
    return units + docs


def rewrite(page: str, command: str, args: argparse.Namespace) -> str:
    """The generated page with the root discussion's labelled paragraphs moved into their
    sections (a subcommand's own exit statuses stay in its entry)."""
    description = page.index(".Sh DESCRIPTION\n") + len(".Sh DESCRIPTION\n")
    options = page.index("\n.Bl ", description) + 1
    labelled: dict[str, str] = {}
    paragraphs = []
    for line in page[description:options].split("\n"):
        label = re.match(r"(Exit status|Environment|Files): (.*)", line)
        if label:
            labelled[label.group(1)] = label.group(2)
        elif line.strip():
            paragraphs.append(line)
    missing = {"Exit status", "Environment", "Files"} - labelled.keys()
    if missing:
        raise ValueError("%s: no %s paragraph in its discussion" % (command, ", ".join(missing)))
    # Blank lines are not paragraph breaks in mdoc (groff warns): .Pp between paragraphs.
    head = page[:description] + "\n.Pp\n".join(paragraphs) + "\n"
    rest = drop_lone_help(page[options:])
    status = re.search(r'^\.Sh "?EXIT STATUS"?\n(?:(?!\.Sh).*\n)*', rest, re.MULTILINE)
    if not status:
        raise ValueError("%s: generate-manual wrote no EXIT STATUS section" % command)
    sections = (
        environment_section(labelled["Environment"])
        + files_section(labelled["Files"], installed_files(command, args))
        + exit_section(labelled["Exit status"])
        + see_also(command)
    )
    rest = rest[:status.start()] + "\n".join(sections) + "\n" + rest[status.end():]
    if "\n.Ar subcommand\n" in head and ".It Em help\n" not in rest:
        head = head.replace("\n.Ar subcommand\n", "\n", 1)
    # Subcommands' discussions have blank lines between paragraphs too.
    rest = re.sub(r"\n(?:\n|\.Pp\n)+", "\n.Pp\n", rest)
    return head + rest.rstrip("\n") + "\n"


def drop_lone_help(text: str) -> str:
    """`text` without the `help` entry argument-parser adds to a command without subcommands
    (its dump lists `help` as the only one; dynctl's real `help` is kept)."""
    lone = re.search(r"^\.It Em help\nShow subcommand help information\.\n\.Bl .*?\n\.El\n",
                     text, re.MULTILINE | re.DOTALL)
    other_commands = re.findall(r"^\.It Em (\S+)", text, re.MULTILINE)
    if lone and other_commands == ["help"]:
        return text[:lone.start()] + text[lone.end():]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--generator", required=True,
                        help="swift-argument-parser's generate-manual")
    parser.add_argument("--unit-dir", required=True)
    parser.add_argument("--doc-dir", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--date", help="the pages' date (default: generate-manual's, today)")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for command in COMMANDS:
            generate = [args.generator, os.path.join(args.bin_dir, command), "--section", "1",
                        "--authors", AUTHORS, "--output-directory", scratch]
            if args.date:
                generate += ["--date", args.date]
            subprocess.run(generate, check=True)
            with open(os.path.join(scratch, command + ".1"), encoding="utf-8") as file:
                page = file.read()
            try:
                page = rewrite(page, command, args)
            except ValueError as error:
                print("man_pages.py: %s" % error, file=sys.stderr)
                return 1
            with open(os.path.join(args.out_dir, command + ".1"), "w", encoding="utf-8") as file:
                file.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
