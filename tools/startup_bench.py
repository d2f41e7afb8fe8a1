#!/usr/bin/env python3
"""Static against dynamic release binaries: their sizes and `dynctl hello`'s start-up time
(BENCHMARKS.md, "Binaries without Swift").

    python3 tools/startup_bench.py STATIC_BIN DYNAMIC_BIN [--runs 400]

STATIC_BIN holds dynd and dynctl built with --static-swift-stdlib (make static-release:
.build-static/release), DYNAMIC_BIN the same built without it (swift build -c release
--scratch-path .build-dynamic -Xlinker -z -Xlinker now). Sizes: as built, and stripped as the
Debian package ships them (`strip --strip-unneeded`); for the dynamic build also the Swift
libraries it loads from the toolchain (ldd). Start-up: one dynd (the static one) on a temporary
socket; `dynctl --socket S hello` run RUNS times from each build, alternating, so that both see
the same machine load; the wall time of each run (spawn to exit, from Python) and the CPU time
(user + system) its process used. Prints Markdown.
"""

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = ("dynd", "dynctl", "dynd-inspect")


def mib(size):
    return "%.1f MiB" % (size / (1 << 20))


def stripped_size(path, scratch):
    copy = os.path.join(scratch, os.path.basename(path))
    shutil.copy(path, copy)
    subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment",
                    "--remove-section=.note", copy], check=True)
    size = os.path.getsize(copy)
    os.remove(copy)
    return size


def toolchain_libraries(path):
    """The Swift libraries `path` loads (ldd), and their total size."""
    output = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    libraries = [line.split("=>")[1].split()[0] for line in output.splitlines()
                 if "=>" in line and "/swift/" in line]
    return libraries, sum(os.path.getsize(os.path.realpath(lib)) for lib in libraries)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(command):
    """(wall ms, CPU ms) of one run of `command`, which must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("static_bin")
    parser.add_argument("dynamic_bin")
    parser.add_argument("--runs", type=int, default=400)
    args = parser.parse_args()
    builds = {"static": args.static_bin, "dynamic": args.dynamic_bin}
    scratch = tempfile.mkdtemp(prefix="dynd-startup.")
    try:
        print("| build | binary | as built | stripped | Swift libraries it loads |")
        print("|---|---|---:|---:|---|")
        for build, directory in builds.items():
            for command in COMMANDS:
                path = os.path.join(directory, command)
                if not os.path.exists(path):
                    continue
                libraries, total = toolchain_libraries(path)
                loads = "%d, %s" % (len(libraries), mib(total)) if libraries else "none"
                print("| %s | %s | %s | %s | %s |" % (build, command, mib(os.path.getsize(path)),
                                                   mib(stripped_size(path, scratch)), loads))
        socket = os.path.join(scratch, "dynd.sock")
        daemon = subprocess.Popen([os.path.join(args.static_bin, "dynd"), "--socket", socket,
                                   "--log-level", "warning"])
        try:
            deadline = time.monotonic() + 10
            while not os.path.exists(socket):
                if time.monotonic() > deadline:
                    sys.exit("dynd did not start")
                time.sleep(0.05)
            samples = {build: ([], []) for build in builds}
            for run in range(args.runs + 20):
                for build, directory in builds.items():
                    wall, cpu = timed([os.path.join(directory, "dynctl"), "--socket", socket,
                                       "hello"])
                    if run >= 20:  # the first runs warm the page cache
                        samples[build][0].append(wall)
                        samples[build][1].append(cpu)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait()
        print()
        print("| `dynctl hello` (%d runs each, alternating) | wall p10 ms | p50 ms | p90 ms | "
              "CPU mean ms |" % args.runs)
        print("|---|---:|---:|---:|---:|")
        for build, (walls, cpus) in samples.items():
            print("| %s | %.2f | %.2f | %.2f | %.2f |" % (
                build, percentile(walls, 0.1), statistics.median(walls), percentile(walls, 0.9),
                statistics.mean(cpus)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
