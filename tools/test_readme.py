#!/usr/bin/env python3
"""Runs every command the READMEs show, in their order, against a private dynd; checks the
paths the documents cite exist.

    python3 tools/test_readme.py BIN_DIR [--only FILE]

BIN_DIR holds the built dynd and dynctl. Documents, in this order: README.md,
examples/README.md, docs/TUTORIAL.md ("Write your own transition"), clients/python/README.md
(when present); the last runs at the same time as the first three, with a private dynd and a
scratch directory of its own.

- A ```sh block is a list of commands (a trailing `# comment` is not part of one): each must
  exit 0 within its time limit. `make test` is not run (it is what runs this) and `make run`
  (dynd in the foreground) is not either: the private dynd stands in for it; nor `make
  inspect`, which serves until stopped (tools/test_inspector.py drives the inspector).
- A ```console block is a transcript: each `$ command` is run, and the lines up to the next `$`
  are its output (standard output and standard error, in order), matched line by line; a line
  `…` stands for any number of lines. The command must exit 0, or N where its output ends with
  a line `[exit N]` (as the golden transcripts of Tests/DynctlTests write it).
- A sh block's `dynd … &` (dynd started in the background) is not run: the private dynd stands
  in for it.

Commands run in a scratch directory holding links to the checkout's examples/, clients/,
protocol/, Tests/ and .build/ (so that files they write stay out of the checkout), with a fresh
virtual environment's bin/ and BIN_DIR first on PATH (so `pip install` installs into the
throwaway environment, not the machine's Python), DYND_SOCKET naming the private dynd and
DYNCTL its dynctl; `make` and `swift` commands run in the checkout. Every path a document cites (a backticked or linked `examples/…`, `tools/…`, …)
must exist. Exit status 1 on any failure, with the document, the line and what differed.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md", "examples/README.md", "docs/TUTORIAL.md", "clients/python/README.md"]
# Documents whose commands run beside the others', against a private dynd and in a scratch
# directory of their own: clients/python/README.md's are mostly pip installs, which wait.
APART = ["clients/python/README.md"]
CITING = DOCUMENTS + ["protocol/PROTOCOL.md", "BENCHMARKS.md", "docs/DESIGN.md",
                      "docs/TRANSITIONS.md", "docs/TRANSITION-DOCUMENTS.md",
                      "docs/RUNNING.md", "docs/INSTALL.md", "docs/TESTING.md",
                      "protocol/examples/README.md",
                      "protocol/schema/README.md"]
TOP_DIRECTORIES = ("Sources/", "Tests/", "tools/", "docs/", "protocol/", "examples/",
                   "clients/", "out/")
NOT_RUN = {"make test": "it is what runs this test",
           "make run": "the private dynd stands in for it",
           "make run &": "the private dynd stands in for it",
           "make inspect": "it serves until stopped; tools/test_inspector.py (make test) drives "
                           "the inspector in Chromium"}
# dynd started in the background, as a document shows it: the private dynd stands in for it.
BACKGROUND_DYND = re.compile(r"^dynd( [^&;|]*)? &$")
EXIT_LINE = re.compile(r"^\[exit (\d+)\]$")
LINKED = ["examples", "clients", "protocol", "Tests", ".build"]


class Failure(Exception):
    pass


def blocks(path):
    """(language, first line number, lines) of each fenced block of the document."""
    found = []
    language, start, lines = None, 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                if language is None:
                    language, start, lines = line[3:].strip() or "text", number + 1, []
                else:
                    found.append((language, start, lines))
                    language = None
            elif language is not None:
                lines.append(line)
    return found


def shell_commands(lines, start):
    """(line number, command) of a sh block, comments and continuations handled."""
    commands, pending, first = [], "", None
    for offset, line in enumerate(lines):
        text = re.sub(r"\s+#.*$", "", line) if not line.lstrip().startswith("#") else ""
        if not text.strip():
            continue
        if first is None:
            first = start + offset
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        commands.append((first, (pending + text).strip()))
        pending, first = "", None
    return commands


def console_commands(lines, start):
    """(line number, command, expected output lines) of a console block."""
    commands = []
    for offset, line in enumerate(lines):
        if line.startswith("$ "):
            commands.append((start + offset, line[2:], []))
        elif commands:
            commands[-1][2].append(line)
        elif line.strip():
            raise Failure("line %d: output before any `$ command`" % (start + offset))
    return commands


def matches(expected, actual):
    """Whether actual lines match expected ones, `…` standing for any lines."""
    if not expected:
        return not actual
    if expected[0] == "…":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


class Workspace:
    """The private dynd and the scratch directory commands run in."""

    def __init__(self, bin_dir):
        self.bin_dir = os.path.abspath(bin_dir)
        for program in ("dynd", "dynctl"):
            if not os.access(os.path.join(self.bin_dir, program), os.X_OK):
                raise Failure("no built %s in %s (swift build first)" % (program, self.bin_dir))
        self.directory = tempfile.mkdtemp(prefix="dynd-readme.")
        os.chmod(self.directory, 0o700)
        for name in LINKED:
            if os.path.exists(os.path.join(ROOT, name)):
                os.symlink(os.path.join(ROOT, name), os.path.join(self.directory, name))
        self.socket = os.path.join(self.directory, "dynd.sock")
        self.log = open(os.path.join(self.directory, "dynd.log"), "w")
        self.daemon = subprocess.Popen(
            [os.path.join(self.bin_dir, "dynd"), "--socket", self.socket, "--log-level",
             "warning"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.socket):
            if self.daemon.poll() is not None or time.monotonic() > deadline:
                raise Failure("the private dynd did not start (log: %s)" % self.log.name)
            time.sleep(0.02)
        venv = os.path.join(self.directory, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        self.environment = dict(os.environ)
        self.environment.pop("PYTHONPATH", None)
        self.environment.update({
            "VIRTUAL_ENV": venv,
            "PATH": os.pathsep.join([os.path.join(venv, "bin"), self.bin_dir,
                                     os.environ.get("PATH", "")]),
            "DYND_SOCKET": self.socket,
            "DYNCTL": os.path.join(self.bin_dir, "dynctl"),
            "DYND_BINARY": os.path.join(self.bin_dir, "dynd"),
            "COLUMNS": "100",
        })

    def run(self, command, limit):
        """(exit status, output lines) of `command`, killed after `limit` seconds."""
        in_checkout = command.startswith(("make ", "swift "))
        process = subprocess.Popen(
            ["bash", "-c", command], cwd=ROOT if in_checkout else self.directory,
            env=self.environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            raise Failure("did not end within %d s (it waits for ever?); its output:\n%s"
                          % (limit, output.decode("utf-8", "replace")[-2000:]))
        return process.returncode, output.decode("utf-8", "replace").splitlines()

    def close(self):
        self.daemon.send_signal(signal.SIGTERM)
        try:
            status = self.daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.daemon.kill()
            status = "killed"
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        if status != 0:
            raise Failure("the private dynd ended with status %s" % status)


def limit_for(command):
    return 900 if command.startswith(("make ", "swift ", "pip ")) else 60


def run_document(workspace, document):
    path = os.path.join(ROOT, document)
    ran = 0
    for language, start, lines in blocks(path):
        if language == "sh":
            for number, command in shell_commands(lines, start):
                if command in NOT_RUN or BACKGROUND_DYND.match(command):
                    print("%s:%d: not run: %s (%s)" % (
                        document, number, command,
                        NOT_RUN.get(command, "the private dynd stands in for it")))
                    continue
                status, output = workspace.run(command, limit_for(command))
                if status != 0:
                    raise Failure("%s:%d: `%s` exited %d:\n%s" % (
                        document, number, command, status, "\n".join(output[-40:])))
                ran += 1
        elif language == "console":
            for number, command, expected in console_commands(lines, start):
                expected_status = 0
                if expected and EXIT_LINE.match(expected[-1]):
                    expected_status = int(EXIT_LINE.match(expected[-1]).group(1))
                    expected = expected[:-1]
                status, output = workspace.run(command, limit_for(command))
                if status != expected_status or not matches(expected, output):
                    raise Failure(
                        "%s:%d: `%s` (exit %d) printed:\n%s\nwhere the document shows:\n%s"
                        % (document, number, command, status, "\n".join(output),
                           "\n".join(expected)))
                ran += 1
    return ran


def cited_paths(document):
    text = open(os.path.join(ROOT, document), encoding="utf-8").read()
    candidates = set(re.findall(r"`([A-Za-z][\w./-]*)`", text))
    candidates |= set(re.findall(r"\]\(([^)#\s]+)", text))
    base = os.path.dirname(document)
    for candidate in sorted(candidates):
        if candidate.startswith(("http:", "https:", "mailto:")):
            continue
        if candidate.startswith("../") or candidate.startswith("./"):
            yield candidate, os.path.normpath(os.path.join(base, candidate))
        elif candidate.startswith(TOP_DIRECTORIES) and "…" not in candidate \
                and "*" not in candidate:
            yield candidate, candidate


def check_citations():
    missing = []
    for document in CITING:
        if not os.path.exists(os.path.join(ROOT, document)):
            continue
        for cited, path in cited_paths(document):
            if path.startswith("out/") or path.startswith(".build"):
                continue  # written by make demo and the build
            beside = os.path.join(ROOT, os.path.dirname(document), cited.rstrip("/"))
            if not os.path.exists(os.path.join(ROOT, path.rstrip("/"))) \
                    and not os.path.exists(beside):
                missing.append("%s cites %s, which the checkout does not contain" % (
                    document, cited))
    return missing


def run_documents(bin_dir, documents):
    """Runs `documents` in order against one private dynd: (report lines, failures)."""
    report, failures = [], []
    workspace = None
    try:
        workspace = Workspace(bin_dir)
        for document in documents:
            if not os.path.exists(os.path.join(ROOT, document)):
                continue
            started = time.monotonic()
            ran = run_document(workspace, document)
            report.append("test_readme: %s: %d commands ran as documented (%.1f s)" % (
                document, ran, time.monotonic() - started))
    except Failure as failure:
        failures.append(str(failure))
    finally:
        # The private dynd is stopped whatever happened; how it ended is a check of its own.
        if workspace is not None:
            try:
                workspace.close()
            except Failure as failure:
                failures.append(str(failure))
    return report, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin_dir", help="the directory of the built dynd and dynctl")
    parser.add_argument("--only", help="run the commands of this document only")
    arguments = parser.parse_args()
    missing = check_citations()
    for line in missing:
        print("test_readme: " + line, file=sys.stderr)
    if arguments.only:
        groups = [[arguments.only]]
    else:
        groups = [[d for d in DOCUMENTS if d not in APART]] + [[d] for d in APART]
    with concurrent.futures.ThreadPoolExecutor(len(groups)) as pool:
        results = list(pool.map(lambda group: run_documents(arguments.bin_dir, group), groups))
    failures = []
    for report, group_failures in results:
        for line in report:
            print(line)
        failures += group_failures
    for failure in failures:
        print("test_readme: FAIL: %s" % failure, file=sys.stderr)
    if missing or failures:
        return 1
    print("test_readme: every cited path exists")
    return 0

if __name__ == "__main__":
    sys.exit(main())
