#!/usr/bin/env python3
"""The release on a machine without Swift (make package-test, part of make test).

    python3 tools/test_package.py --deb dist/dynd_V_amd64.deb --wheel dist/dynd-V-py3-none-any.whl

Checks, one line each:
  1. one version: the .deb's Version, the wheel's, and (below) every binary's --version are the
     file VERSION;
  2. the .deb's Depends, derived by dpkg-shlibdeps, names the Debian libraries the binaries link
     (libc6, libstdc++6, libbox2d2, libevent-core, libjson-c5) and nothing of Swift; the package
     holds every file make install writes under /usr (make deb-install-list);
  3. in a throwaway root where the .deb is extracted (dpkg-deb -x), with the Swift toolchain's
     directory hidden from the process (a private mount namespace, `unshare --mount`, with an
     empty tmpfs over /opt/swift): ldd of each installed binary finds every library outside
     /opt/swift; each --version; the installed dynd on a temporary socket, driven by the installed
     dynctl: hello, a lock-screen flick that opens, `dynctl handoff` passing; then a fresh venv
     with the wheel and pytest, whose example test (clients/python/examples) passes against the
     installed dynd; dynd stops with 0 on SIGTERM;
  4. `man -l` renders each page with groff's warnings on and none printed, with the sections
     ENVIRONMENT, FILES and EXIT STATUS;
  5. the completion scripts parse: bash -n, zsh -n and fish -n (each shell where installed);
  6. systemd-analyze verify --user on the units (where installed; ExecStart pointed at the root's
     dynd, and MANPATH at its pages, which Documentation= names);
  7. make install DESTDIR=D writes exactly what make install-list lists, and make uninstall
     DESTDIR=D then leaves D empty.
Exits 1 if any check fails. TOOLCHAIN (default /opt/swift) is the directory hidden.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = ("dynd", "dynctl", "dynd-inspect")
# The packages of the libraries the binaries link (libevent-core's name carries its soname).
SHARED_LIBRARY_PACKAGES = ("libc6", "libstdc++6", "libbox2d2", "libevent-core-", "libjson-c5")
EXAMPLE_TEST = os.path.join(CHECKOUT, "clients", "python", "examples",
                            "test_lock_screen_handoff.py")


class Failure(Exception):
    pass


#: The environment the make commands below run in: a make of their own, as a person runs it,
#: whatever make runs this check (under make test's -j2 lanes, a make inheriting the parent's
#: jobserver warns on standard error that it is unavailable).
MAKE_ENV = {name: value for name, value in os.environ.items()
            if name not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
#: make test's BUILT=yes (the binaries are built; make install must not build them again),
#: passed on by name since MAKEFLAGS is not.
MAKE_VARIABLES = ["BUILT=yes"] if "BUILT=yes" in os.environ.get("MAKEFLAGS", "").split() else []


def run(command: list[str], timeout: float = 120, **kwargs: object) -> str:
    """The output (stdout and stderr together) of `command`; Failure if it exits non-zero."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=timeout, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        raise Failure("%s exited %d:\n%s" % (" ".join(command), done.returncode, done.stdout))
    return str(done.stdout)


def release_version() -> str:
    with open(os.path.join(CHECKOUT, "VERSION"), encoding="utf-8") as file:
        return file.read().strip()


def check(name: str, step: object, *args: object) -> bool:
    start = time.monotonic()
    try:
        detail = step(*args)  # type: ignore[operator]
    except (Failure, subprocess.TimeoutExpired, OSError) as error:
        print("test_package: %s: FAILED (%.1f s)\n    %s" % (
            name, time.monotonic() - start, str(error).replace("\n", "\n    ")))
        return False
    print("test_package: %s: ok (%.1f s)%s" % (
        name, time.monotonic() - start, " " + detail if detail else ""))
    return True


# 1, 2: the package's fields and files.

def check_versions(deb: str, wheel: str) -> str:
    version = release_version()
    deb_version = run(["dpkg-deb", "-f", deb, "Version"]).strip()
    wheel_version = os.path.basename(wheel).split("-")[1]
    if (deb_version, wheel_version) != (version, version):
        raise Failure("VERSION %s, the .deb %s, the wheel %s"
                      % (version, deb_version, wheel_version))
    return "VERSION, the .deb and the wheel: %s" % version


def check_depends(deb: str) -> str:
    depends = run(["dpkg-deb", "-f", deb, "Depends"]).strip()
    names = [alternative.split()[0] for alternative in re.split(r"[,|]", depends)]
    missing = [package for package in SHARED_LIBRARY_PACKAGES
               if not any(name == package or name.startswith(package) and package.endswith("-")
                          for name in names)]
    if missing or any("swift" in name for name in names):
        raise Failure("Depends: %s (missing %s)" % (depends, ", ".join(missing) or "nothing"))
    return "Depends: " + depends


def make_list(target: str) -> list[str]:
    """The paths make install writes: `make install-list` (PREFIX=/usr/local) or
    `make deb-install-list` (the places of make deb)."""
    listed = subprocess.run(["make", "--no-print-directory", "-s", target] + MAKE_VARIABLES,
                            cwd=CHECKOUT,
                            env=MAKE_ENV, capture_output=True, text=True, timeout=120)
    if listed.returncode != 0:
        raise Failure("make %s exited %d:\n%s%s" % (target, listed.returncode, listed.stdout,
                                                     listed.stderr))
    return listed.stdout.split()


def check_contents(root: str) -> str:
    expected = [path + ".gz" if "/man/man1/" in path else path
                for path in make_list("deb-install-list")]
    missing = [path for path in expected if not os.path.isfile(root + path)]
    if missing:
        raise Failure("the package lacks: " + ", ".join(missing))
    return "%d files of make install, under /usr" % len(expected)


# 3: the installed binaries with the toolchain hidden (runs inside the mount namespace).

def hidden_toolchain_run(root: str, wheel: str, toolchain: str) -> str:
    """Runs this script's --inside part in a private mount namespace with `toolchain` hidden."""
    inside = [sys.executable, os.path.abspath(__file__), "--inside", root, "--wheel", wheel,
              "--toolchain", toolchain]
    hide = 'mount -t tmpfs -o size=64k,mode=0755 dynd-no-swift "$0" && exec "$@"'
    unshare = ["unshare", "--mount", "--propagation", "private"]
    if os.getuid() != 0:
        unshare.insert(1, "--map-root-user")
    output = run(unshare + ["sh", "-c", hide, toolchain] + inside, timeout=600)
    print(output.rstrip())
    return "(the lines above ran with %s hidden)" % toolchain


def inside(root: str, wheel: str, toolchain: str) -> int:
    if os.listdir(toolchain):
        print("inside: %s is not hidden" % toolchain)
        return 1
    failed = not check("no Swift here", no_swift, toolchain)
    failed |= not check("ldd of the installed binaries", ldd_outside, root, toolchain)
    failed |= not check("installed --version", installed_versions, root)
    failed |= not check("installed dynd driven by the installed dynctl, the wheel's example test",
                        drive_installed, root, wheel)
    return int(failed)


def no_swift(toolchain: str) -> str:
    on_path = shutil.which("swift")
    if on_path and subprocess.run([on_path, "--version"], capture_output=True).returncode == 0:
        raise Failure("swift still runs: " + on_path)
    return "%s is empty; swift %s" % (toolchain,
                                      "does not run" if on_path else "is not on PATH")


def ldd_outside(root: str, toolchain: str) -> str:
    report = []
    for command in COMMANDS:
        binary = os.path.join(root, "usr", "bin", command)
        output = run(["ldd", binary])
        if "not found" in output or toolchain in output:
            raise Failure("ldd %s:\n%s" % (binary, output))
        libraries = [line.split()[0] for line in output.splitlines() if line.strip()]
        report.append("%s: %s" % (command, " ".join(libraries)))
    return "\n    " + "\n    ".join(report)


def installed_versions(root: str) -> str:
    version = release_version()
    for command in COMMANDS:
        said = run([os.path.join(root, "usr", "bin", command), "--version"]).strip()
        if said != version:
            raise Failure("%s --version says %r, VERSION is %s" % (command, said, version))
    return "dynd, dynctl, dynd-inspect: %s" % version


def drive_installed(root: str, wheel: str) -> str:
    bin_dir = os.path.join(root, "usr", "bin")
    work = tempfile.mkdtemp(prefix="dynd-package-run.")
    socket = os.path.join(work, "dynd.sock")
    log = open(os.path.join(work, "dynd.log"), "w+", encoding="utf-8")
    daemon = subprocess.Popen([os.path.join(bin_dir, "dynd"), "--socket", socket],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        def dynctl(*arguments: str) -> str:
            output = run([os.path.join(bin_dir, "dynctl"), "--socket", socket, *arguments])
            print("    $ dynctl %s\n%s" % (" ".join(arguments), indent(output)))
            return output

        deadline = time.monotonic() + 10
        while not os.path.exists(socket):
            if daemon.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise Failure("dynd did not create its socket:\n" + log.read())
            time.sleep(0.05)
        if "version %s" % release_version() not in dynctl("hello"):
            raise Failure("hello does not give version " + release_version())
        dynctl("open", "lock-screen", "--session", "L", "--clock", "manual")
        dynctl("gesture", "L", "--from", "160,500", "--to", "160,380", "--duration", "0.2",
               "--release-velocity", "0,-1400")
        if "done: opened" not in dynctl("step", "L", "--count", "120"):
            raise Failure("the flick did not open the lock screen")
        dynctl("handoff", "lock-screen", "--pan", "160,500:160,380", "--duration", "0.2",
               "--release-velocity", "0,-1400")
        wheel_example(wheel, bin_dir, work)
    finally:
        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(timeout=10)
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    if status != 0:
        raise Failure("dynd exited %d on SIGTERM" % status)
    return "dynd stopped with 0"


def wheel_example(wheel: str, bin_dir: str, work: str) -> None:
    venv = os.path.join(work, "venv")
    run([sys.executable, "-m", "venv", venv])
    python = os.path.join(venv, "bin", "python")
    run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel, "pytest"],
        timeout=300)
    run([python, "-c", "import dynd, sys; sys.exit(not dynd.__file__.startswith(sys.prefix) "
         "or dynd.__version__ != %r)" % release_version()])
    output = run([os.path.join(venv, "bin", "pytest"), "-q", "-p", "no:cacheprovider",
                  EXAMPLE_TEST, "--dynd-binary", os.path.join(bin_dir, "dynd")], cwd=work)
    print("    $ pytest %s (the wheel in a fresh venv)\n%s" % (
        os.path.relpath(EXAMPLE_TEST, CHECKOUT), indent(output.strip().splitlines()[-1])))


def indent(text: str) -> str:
    return "\n".join("      " + line for line in text.rstrip().splitlines())


# 4, 5, 6: man pages, completions, units.

def check_man_pages(root: str) -> str:
    for command in COMMANDS:
        page = os.path.join(root, "usr", "share", "man", "man1", command + ".1.gz")
        rendered = subprocess.run(["man", "--warnings=all", "-l", page], capture_output=True,
                                  text=True, env=dict(os.environ, MANWIDTH="80"))
        if rendered.returncode != 0 or rendered.stderr.strip():
            raise Failure("man -l %s: exit %d\n%s" % (page, rendered.returncode, rendered.stderr))
        for section in ("ENVIRONMENT", "FILES", "EXIT STATUS", "SEE ALSO"):
            if not re.search(r"^%s$" % section, rendered.stdout, re.MULTILINE):
                raise Failure("%s(1) has no %s section" % (command, section))
    return "dynd(1), dynctl(1), dynd-inspect(1): no warning"


def check_completions(root: str) -> str:
    share = os.path.join(root, "usr", "share")
    shells = [("bash", ["bash", "-n"], "bash-completion/completions/%s"),
              ("zsh", ["zsh", "-n"], "zsh/vendor-completions/_%s"),
              ("fish", ["fish", "--no-execute"], "fish/vendor_completions.d/%s.fish")]
    checked, skipped = [], []
    for shell, command, place in shells:
        if not shutil.which(shell):
            skipped.append(shell)
            continue
        for name in COMMANDS:
            run(command + [os.path.join(share, place % name)])
        checked.append(shell)
    return "%s parse%s" % (", ".join(checked), "; not installed: " + ", ".join(skipped)
                           if skipped else "")


def check_units(root: str) -> str:
    if not shutil.which("systemd-analyze"):
        return "skipped: systemd-analyze is not installed"
    work = tempfile.mkdtemp(prefix="dynd-units.")
    try:
        units = os.path.join(root, "usr", "lib", "systemd", "user")
        shutil.copy(os.path.join(units, "dynd.socket"), work)
        with open(os.path.join(units, "dynd.service"), encoding="utf-8") as file:
            service = file.read()
        if "ExecStart=/usr/bin/dynd --systemd" not in service:
            raise Failure("dynd.service does not start /usr/bin/dynd --systemd")
        with open(os.path.join(work, "dynd.service"), "w", encoding="utf-8") as file:
            file.write(service.replace("/usr/bin/dynd", os.path.join(root, "usr", "bin", "dynd")))
        runtime = os.path.join(work, "runtime")
        os.mkdir(runtime, 0o700)
        environment = dict(os.environ, XDG_RUNTIME_DIR=runtime,
                           MANPATH=os.path.join(root, "usr", "share", "man"))
        output = run(["systemd-analyze", "--user", "verify",
                      os.path.join(work, "dynd.socket"), os.path.join(work, "dynd.service")],
                     env=environment)
        if output.strip():
            raise Failure("systemd-analyze verify:\n" + output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return "dynd.socket, dynd.service"


# 7: make install / make uninstall.

def check_install_uninstall() -> str:
    destdir = tempfile.mkdtemp(prefix="dynd-destdir.")
    try:
        run(["make", "--no-print-directory", "install", "DESTDIR=" + destdir] + MAKE_VARIABLES,
            cwd=CHECKOUT, env=MAKE_ENV, timeout=900)
        written = sorted(os.path.relpath(os.path.join(directory, name), destdir)
                         for directory, _, names in os.walk(destdir) for name in names)
        listed = sorted(path.lstrip("/") for path in make_list("install-list"))
        if written != listed:
            raise Failure("make install wrote %s\nthe list says %s" % (written, listed))
        run(["make", "--no-print-directory", "uninstall", "DESTDIR=" + destdir] + MAKE_VARIABLES,
            cwd=CHECKOUT, env=MAKE_ENV)
        left = os.listdir(destdir)
        if left:
            raise Failure("make uninstall left %s in %s" % (left, destdir))
    finally:
        shutil.rmtree(destdir, ignore_errors=True)
    return "%d files written under /usr/local, then none left" % len(written)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deb")
    parser.add_argument("--wheel", required=True)
    parser.add_argument("--toolchain", default="/opt/swift")
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    wheel = os.path.abspath(args.wheel)
    if args.inside:
        return inside(args.inside, wheel, args.toolchain)
    if not args.deb:
        parser.error("--deb is required")
    start = time.monotonic()
    root = tempfile.mkdtemp(prefix="dynd-package-root.")
    try:
        run(["dpkg-deb", "-x", args.deb, root])
        results = [
            check("one version", check_versions, args.deb, wheel),
            check("Depends", check_depends, args.deb),
            check("package contents", check_contents, root),
            check("installed, toolchain hidden", hidden_toolchain_run, root, wheel, args.toolchain),
            check("man -l", check_man_pages, root),
            check("completions", check_completions, root),
            check("systemd-analyze verify --user", check_units, root),
            check("make install / uninstall DESTDIR", check_install_uninstall),
        ]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("test_package: %d of %d checks passed (%.0f s)" % (
        sum(results), len(results), time.monotonic() - start))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
