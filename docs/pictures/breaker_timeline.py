"""The circuit breaker over time, drawn from a real run: the demo application (its defaults: decision-timeout 1 s,
failure-threshold 3, open-duration 10 s) answers a steady stream of calls to a fail-open limit (/failure/open, a new
tenant per call) while its redis-server is paused (SIGSTOP) for a while and then resumed. Every call's answer time, the
decisions per second by what decided them and the breaker's state are read from the application itself (its answers
and /q/metrics) and plotted on one time axis.

    python3 breaker_timeline.py <application port> <redis-server pid> <picture>

Needs matplotlib (Debian: python3-matplotlib).
"""
import os
import re
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PAUSE_AT, RESUME_AT, END_AT = 6.0, 25.0, 36.0  # seconds from the start
CALLERS, CALLS_PER_SECOND = 4, 40
STATES = {0: "closed", 1: "half-open", 2: "open"}

port, redis_pid, picture = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
base = "http://127.0.0.1:%d" % port
start = time.monotonic()
calls = []  # (seconds since start, answer time in ms, status)
samples = []  # (seconds since start, circuit state, {decided_by: total decisions})
lock = threading.Lock()


def now():
    return time.monotonic() - start


def call():
    request = urllib.request.Request(base + "/failure/open", headers={"X-Tenant-Id": "t-" + uuid.uuid4().hex})
    sent = now()
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as e:
        status = e.code
    with lock:
        calls.append((sent, (now() - sent) * 1000, status))


def caller():
    interval = CALLERS / CALLS_PER_SECOND
    next_at = now()
    while now() < END_AT:
        call()
        next_at += interval
        time.sleep(max(0.0, next_at - now()))


def sampler():
    while now() < END_AT:
        with urllib.request.urlopen(base + "/q/metrics", timeout=5) as response:
            scrape = response.read().decode()
        state = re.search(r"^rate_limit_circuit_state(?:\{[^}]*\})? ([0-9.]+)", scrape, re.M)
        decided = {}
        for labels, value in re.findall(r'^rate_limit_decisions_total\{([^}]*)\} ([0-9.E]+)', scrape, re.M):
            if 'limit="FailureModesResource.open"' in labels:
                by = re.search(r'decided_by="([^"]+)"', labels).group(1)
                decided[by] = decided.get(by, 0) + float(value)
        samples.append((now(), int(float(state.group(1))) if state else 0, decided))
        time.sleep(0.25)


threads = [threading.Thread(target=caller) for _ in range(CALLERS)] + [threading.Thread(target=sampler)]
for thread in threads:
    thread.start()
time.sleep(PAUSE_AT)
os.kill(redis_pid, signal.SIGSTOP)
time.sleep(RESUME_AT - PAUSE_AT)
os.kill(redis_pid, signal.SIGCONT)
for thread in threads:
    thread.join()

figure, (answers, decisions, breaker) = plt.subplots(3, 1, figsize=(11, 7.5), sharex=True,
                                                     gridspec_kw={"height_ratios": [3, 2, 1.2]})
for axis in (answers, decisions, breaker):
    axis.axvspan(PAUSE_AT, RESUME_AT, color="0.9")
answers.text((PAUSE_AT + RESUME_AT) / 2, 0.62, "redis-server paused (SIGSTOP)", ha="center", va="top", color="0.35",
             transform=answers.get_xaxis_transform())

answers.scatter([c[0] for c in calls], [max(c[1], 0.1) for c in calls], s=6,
                c=["tab:green" if c[2] == 200 else "tab:red" for c in calls])
answers.set_yscale("log")
answers.set_ylabel("answer time (ms)")
answers.set_title("A fail-open limit while Redis is paused: %d calls a second, each answered 200" % CALLS_PER_SECOND
                  if all(c[2] == 200 for c in calls) else "A fail-open limit while Redis is paused",
                  loc="left", fontsize=10)

for by, color in (("redis", "tab:blue"), ("fail_open", "tab:orange")):
    xs, ys = [], []
    # over the second before each sample: the samples come every quarter of a second
    for (t0, _, before), (t1, _, after) in zip(samples, samples[4:]):
        xs.append(t1)
        ys.append((after.get(by, 0) - before.get(by, 0)) / (t1 - t0))
    decisions.plot(xs, ys, color=color, label="decided by %s" % ("Redis" if by == "redis" else "the failure mode"))
decisions.set_ylabel("decisions/s")
decisions.legend(loc="upper right", fontsize=8)

breaker.step([s[0] for s in samples], [s[1] for s in samples], where="post", color="black")
breaker.set_yticks(list(STATES))
breaker.set_yticklabels([STATES[s] for s in STATES])
breaker.set_ylim(-0.3, 2.3)
breaker.set_ylabel("breaker")
breaker.set_xlabel("seconds (decision-timeout 1 s, failure-threshold 3, open-duration 10 s: the defaults)")
figure.tight_layout()
figure.savefig(picture, dpi=100)
print("%s: %d calls, statuses %s" % (picture, len(calls), sorted({c[2] for c in calls})))
