#!/usr/bin/env python3
"""What a kept session of one of the fairness bench's scenes holds: dynd's resident memory
growth while one client opens N kept sessions of it and steps each (issue 39).

    tools/session_memory.py BIN_DIR SCENE N [--steps K] [--memory-budget MIB] [--pile N]

SCENE is one of: gons (372 stacked 64-gons, collision mode boundaries), pile (--pile boxes on
one spot, gravity and collision), storm (the group storm: 100 stacked 64-gons grouped, 50 hubs),
cross (two overlapping groups of 10 64-gons). Prints the sessions admitted (an `open` refused
ends the run, and is printed), VmRSS and VmHWM before and after, and the growth per session.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fairness_bench as fb  # noqa: E402


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for entry in f:
            key, _, value = entry.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir")
    parser.add_argument("scene", choices=["gons", "pile", "storm", "cross"])
    parser.add_argument("sessions", type=int)
    parser.add_argument("--steps", type=int, default=1, help="one-frame steps per session")
    parser.add_argument("--memory-budget", help="dynd's --memory-budget, MiB")
    parser.add_argument("--pile", type=int, default=1000, help="boxes of the pile scene")
    args = parser.parse_args()
    scenes = {"gons": fb.GonMemory.scene, "pile": lambda: fb.pile(args.pile),
              "storm": fb.GroupStorm.scene, "cross": fb.CrossingGroups.scene}
    path = os.path.join(tempfile.mkdtemp(), "s")
    command = [os.path.join(args.bin_dir, "dynd"), "--socket", path]
    if args.memory_budget:
        command += ["--memory-budget", args.memory_budget]
    daemon = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        client = fb.Client(path)
        scene = scenes[args.scene]()
        before = status(daemon.pid)
        admitted = 0
        for k in range(args.sessions):
            reply = client.request({"op": "open", "session": f"s{k}", "clock": "manual",
                                    "keep": True, "scene": scene}, 120)
            if not reply or not reply.get("ok"):
                print(f"open {k} refused: {reply and reply.get('error')}")
                break
            for _ in range(args.steps):
                client.request({"op": "step", "session": f"s{k}", "dt": 1 / 60}, 120)
            admitted += 1
        after = status(daemon.pid)
        growth = (after["VmRSS"] - before["VmRSS"]) / 1024
        print(f"{args.scene}: {admitted} sessions; VmRSS {before['VmRSS'] / 1024:.1f} → "
              f"{after['VmRSS'] / 1024:.1f} MiB, peak {after['VmHWM'] / 1024:.1f} MiB; "
              f"{growth / max(admitted, 1):.2f} MiB a session")
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
