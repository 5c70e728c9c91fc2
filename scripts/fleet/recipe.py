"""The fleet recipe of docs/fleet.md, run on one file of fleet records (`prewarm-lint --format fleet` outputs
concatenated): the questions a launch-time owner asks of a fleet, answered by DuckDB, and the records exported to
Parquet. Prints each answer as one JSON line (`{"query": name, "rows": [...], "ms": time}`), then the load time and
the peak memory. Prints NO-DUCKDB when DuckDB is not installed (python3 -m pip install duckdb).

    python3 scripts/fleet/recipe.py fleet.ndjson [out.parquet]
"""
import json
import resource
import sys
import time

try:
    import duckdb
except ImportError:
    print("NO-DUCKDB")
    sys.exit(0)

records, parquet = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
con = duckdb.connect()
started = time.perf_counter()
# One scan of the file into a table; each record kind has its own fields (an input's, a session's).
con.execute(f"CREATE TABLE fleet AS SELECT * FROM read_json_auto('{records}', format='newline_delimited', union_by_name=true)")
con.execute("CREATE VIEW sessions AS SELECT * FROM fleet WHERE record = 'session'")
load_ms = (time.perf_counter() - started) * 1000

QUERIES = {
    # How long users wait, by launch kind: median and p90 of the user-perceived launch.
    "launch_by_kind": """SELECT kind, count(*) AS sessions, median(launchMs) AS median_ms, quantile_cont(launchMs, 0.9) AS p90_ms
                         FROM sessions GROUP BY kind ORDER BY kind""",
    # The same by OS build and device model (sessions whose inputs name one device).
    "launch_by_build_model": """SELECT build, model, count(*) AS sessions, median(launchMs) AS median_ms
                                FROM sessions WHERE build IS NOT NULL GROUP BY build, model ORDER BY build, model""",
    # The share of launches the system prewarmed.
    "prewarm_share": """SELECT round(avg(CASE WHEN kind = 'prewarm-then-launch' THEN 1.0 ELSE 0.0 END), 6) AS prewarm_share
                        FROM sessions WHERE kind IN ('cold-launch', 'prewarm-then-launch')""",
    # Findings per rule and build (the rules' names are the keys of `findings`).
    "keychain_by_build": """SELECT build, sum(coalesce(findings."keychain-while-locked", 0)) AS keychain_while_locked
                            FROM sessions GROUP BY build ORDER BY build""",
    "inputs": "SELECT count(*) AS inputs, count(error) AS unreadable FROM fleet WHERE record = 'input'",
}
for name, query in QUERIES.items():
    started = time.perf_counter()
    rows = con.execute(query).fetchall()
    columns = [column[0] for column in con.description]
    elapsed = (time.perf_counter() - started) * 1000
    print(json.dumps({"query": name, "rows": [dict(zip(columns, row)) for row in rows], "ms": round(elapsed, 2)}, default=str))
if parquet:
    started = time.perf_counter()
    con.execute(f"COPY (SELECT * FROM sessions) TO '{parquet}' (FORMAT parquet)")
    back = con.execute(f"SELECT count(*) FROM read_parquet('{parquet}')").fetchone()[0]
    print(json.dumps({"query": "parquet", "rows": [{"sessions": back}], "ms": round((time.perf_counter() - started) * 1000, 2)}))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"load_ms": round(load_ms, 2), "peak_mb": round(peak, 1)}))
