#!/usr/bin/env python3
"""Re-records the `< ` lines of a one-connection transcript in protocol/examples.

Usage: tools/record_transcript.py BIN_DIR protocol/examples/NAME.jsonl

Starts BIN_DIR/dynd on a temporary socket, sends the transcript's `> ` lines in order on one
connection, and rewrites the file with what the daemon answered: every event and the reply of
each request, in the order received. Comments stay where they were. Only for transcripts that
use the default connection and give every request an `id`; review the diff before committing.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bin_dir, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if any(line[:1] not in ("#", ">", "<", "") for line in lines):
        sys.exit(f"{path}: only default-connection transcripts can be re-recorded")
    folder = tempfile.mkdtemp(prefix="dynd-record-")
    sock_path = os.path.join(folder, "dynd.sock")
    daemon = subprocess.Popen([os.path.join(bin_dir, "dynd"), "--socket", sock_path])
    try:
        for _ in range(200):
            if os.path.exists(sock_path):
                break
            time.sleep(0.02)
        conn = socket.socket(socket.AF_UNIX)
        conn.connect(sock_path)
        reader = conn.makefile("r", encoding="utf-8")
        out = []
        for line in lines:
            if line.startswith("<"):
                continue
            out.append(line)
            if not line.startswith(">"):
                continue
            request = json.loads(line[2:])
            conn.sendall((line[2:] + "\n").encode())
            while True:
                answer = reader.readline()
                if not answer:
                    sys.exit(f"{path}: the daemon closed the connection")
                out.append("< " + answer.rstrip("\n"))
                message = json.loads(answer)
                if "ok" in message and message.get("id") == request.get("id"):
                    break
        conn.close()
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
