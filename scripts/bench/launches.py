#!/usr/bin/env python3
"""Writes a log that is nothing but prewarm launches: the worst case for memory in launches.

    scripts/bench/launches.py COUNT PATH [APPS]

`log show --style compact`, independent of the project's own generator (DeviceLogGenerator): COUNT
prewarms of APPS apps (default 100) in turn, each a new process (pids from 1000 up, distinct until they
wrap at 99,999), in runningboardd's shapes as the generator writes them (`Executing launch request for
app<BUNDLE(501)> (DAS Prewarm launch)`, `Now tracking process: [app<BUNDLE(501)>:PID]`, `[...] Suspending
task.`), 40 ms apart. No exit lines: an app's next process ends its last session, so at most APPS
sessions are open at once while the closed ones pile up behind them.
"""
import sys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: launches.py COUNT PATH [APPS]")
    count, path = int(sys.argv[1]), sys.argv[2]
    apps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    milliseconds = 0
    prefix = "Df runningboardd[33:2b28] [com.apple.runningboard:process] "
    with open(path, "w", buffering=1 << 20) as out:
        out.write("Timestamp               Ty Process[PID:TID]\n")
        for launch in range(count):
            app = f"app<com.bench.app{launch % apps:03d}(501)>"
            pid = 1000 + launch % 98_999
            for message in (f"Executing launch request for {app} (DAS Prewarm launch)",
                            f"Now tracking process: [{app}:{pid}]",
                            f"[{app}:{pid}] Suspending task."):
                seconds, millis = divmod(milliseconds, 1000)
                minutes, second = divmod(seconds, 60)
                hours, minute = divmod(minutes, 60)
                day, hour = divmod(hours, 24)
                out.write(f"2024-{3 + day // 28:02d}-{1 + day % 28:02d} {hour:02d}:{minute:02d}:{second:02d}.{millis:03d} {prefix}{message}\n")
                milliseconds += 13


if __name__ == "__main__":
    main()
