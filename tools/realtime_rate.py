#!/usr/bin/env python3
"""Frames a second and their evenness of a realtime session at FPS (BENCHMARKS.md, "Frames at any
refresh rate"): opens one bouncing item on a running dynd at SOCKET and watches it for SECONDS.

Usage: tools/realtime_rate.py SOCKET FPS SECONDS
"""
import json
import socket
import sys
import time

SCENE = {
    "bounds": [320, 568],
    "items": [{"id": "a", "center": [160, 100], "size": [30, 30]}],
    "behaviors": [
        {"type": "gravity", "items": ["a"]},
        {"type": "collision", "items": ["a"], "reference_bounds": True},
        {"type": "dynamic_item", "items": ["a"], "elasticity": 1, "friction": 0, "resistance": 0},
    ],
}


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, fps, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    conn = socket.socket(socket.AF_UNIX)
    conn.connect(path)
    reader = conn.makefile("r", encoding="utf-8")
    request = {"op": "open", "session": "rate", "clock": "realtime", "fps": fps, "scene": SCENE}
    conn.sendall((json.dumps(request) + "\n").encode())
    times, start = [], None
    while True:
        message = json.loads(reader.readline())
        if message.get("ev") != "frame":
            continue
        now = time.monotonic()
        start = start or now
        if now - start > seconds:
            break
        times.append(message["t"])
    gaps = [b - a for a, b in zip(times, times[1:])]
    even = sum(1 for gap in gaps if abs(gap - 1 / fps) <= 0.001)
    print(f"fps {fps}: {len(times) / seconds:.1f} frames a second over {seconds} s; {even} of "
          f"{len(gaps)} successive frames 1/fps apart in t within 1 ms")


if __name__ == "__main__":
    main()
