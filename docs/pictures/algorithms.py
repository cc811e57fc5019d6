"""The algorithms at a window boundary, drawn from real decisions: every call below is decided by the shipped script
(integration-tests/target/quarkus-rate-limit/lua/rate_limit-<algorithm>.lua) on a real redis-server, with the clock
given in the call, and plotted as it was answered.

    python3 algorithms.py <redis port> <scripts folder> <picture>

One client calls 3 times a second from t = 7 s to t = 33 s; every limit allows 10 calls per 10 s (windows start at
0, 10, 20, 30 s). Needs matplotlib (Debian: python3-matplotlib).
"""
import socket
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LIMIT, WINDOW_MS = 10, 10_000
EPOCH_US = 1_700_000_000 * 1_000_000  # on a window boundary of every window length here
CALLS = [7.0 + i / 3 for i in range(78)]  # seconds since EPOCH
ALGORITHMS = [
    ("fixed_window", "FIXED_WINDOW"),
    ("sliding_window_counter", "SLIDING_WINDOW_COUNTER (default)"),
    ("sliding_window_log", "SLIDING_WINDOW_LOG"),
    ("token_bucket", "TOKEN_BUCKET (burst = limit)"),
    ("gcra", "GCRA (burst = limit)"),
]


class Redis:
    """Just enough RESP to send commands and read integer and array replies."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")

    def command(self, *args):
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.sock.sendall(b"".join(parts))
        return self.read()

    def read(self):
        line = self.file.readline().rstrip(b"\r\n")
        kind, rest = line[:1], line[1:]
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"+":
            return rest.decode()
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            data = self.file.read(size + 2)[:-2]
            return data.decode()
        if kind == b"*":
            return [self.read() for _ in range(int(rest))]
        raise RuntimeError("unexpected reply " + line.decode())


def decide(redis, script, module, key, at_seconds):
    now_us = EPOCH_US + round(at_seconds * 1_000_000)
    reply = redis.command("EVAL", script, 1, key, now_us, module, LIMIT, WINDOW_MS, 1, 0)
    return reply[0] == 1


def most_in_any_window(admitted):
    """The most calls admitted within any 10 s (a half-open interval, in the microseconds the scripts were given)."""
    times = [round(t * 1_000_000) for t in admitted]
    return max(sum(1 for t in times if start <= t < start + WINDOW_MS * 1000) for start in times)


def main():
    port, scripts, picture = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    redis = Redis(port)
    figure, rows = plt.subplots(len(ALGORITHMS), 1, figsize=(10, 1.35 * len(ALGORITHMS) + 1.0), sharex=True, dpi=110)
    for row, (module, title) in zip(rows, ALGORITHMS):
        with open("%s/rate_limit-%s.lua" % (scripts, module)) as source:
            script = source.read()
        key = "picture:%s" % module
        redis.command("DEL", key)
        admitted = [t for t in CALLS if decide(redis, script, module, key, t)]
        refused = [t for t in CALLS if t not in admitted]
        row.scatter(admitted, [1] * len(admitted), marker="|", s=300, color="#2e7d32", label="admitted")
        row.scatter(refused, [1] * len(refused), marker="|", s=300, color="#e0a0a0", label="refused")
        for boundary in (10, 20, 30):
            row.axvline(boundary, color="#555", linestyle="--", linewidth=0.8)
        row.set_yticks([])
        row.set_ylim(0.5, 1.5)
        row.set_title("%s: %d admitted, at most %d in any 10 s" % (title, len(admitted), most_in_any_window(admitted)),
                      fontsize=9.5, loc="left")
    rows[0].legend(loc="upper right", fontsize=8, ncol=2)
    rows[-1].set_xlabel("seconds (a call every 1/3 s; dashed: window boundaries; limit 10 per 10 s)")
    figure.tight_layout()
    figure.savefig(picture)
    print("picture: " + picture)


if __name__ == "__main__":
    main()
