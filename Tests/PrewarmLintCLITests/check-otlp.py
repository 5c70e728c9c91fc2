"""Checks a file of `--format otlp` output against OpenTelemetry's protobuf definitions (PyPI opentelemetry-proto):
each line one OTLP/JSON export request, parsed strictly (no unknown field) as an ExportTraceServiceRequest
(`resourceSpans`) or an ExportLogsServiceRequest (`resourceLogs`), its ids in hex as OTLP/JSON writes them (turned into
protobuf JSON's base64 to parse: a trace id 16 bytes, a span id 8, never all zero). Then what OTLP requires beyond the
definitions: a span ends no earlier than it starts, a parent span is in its trace, a log record's trace and span are a
span written before it. Prints NO-OTLP-PROTO when the module is not installed; one line per problem, then
"checked N requests: S spans, L log records".
"""
import base64
import json
import re
import sys

try:
    from google.protobuf import json_format
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
except ImportError:
    print("NO-OTLP-PROTO")
    sys.exit(0)

HEX = re.compile(r"^[0-9a-f]+$")
problems = []
spans_seen = {}
counts = {"requests": 0, "spans": 0, "logs": 0}


def rebase(node, where):
    """OTLP/JSON's hex ids as protobuf JSON's base64, checked on the way."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if key in ("traceId", "spanId", "parentSpanId"):
                size = 16 if key == "traceId" else 8
                if not isinstance(value, str) or not HEX.match(value) or len(value) != 2 * size or set(value) == {"0"}:
                    problems.append(f"{where}: {key} {value!r} is not {size} bytes in lowercase hex, not all zero")
                    continue
                node[key] = base64.b64encode(bytes.fromhex(value)).decode()
            else:
                rebase(value, where)
    elif isinstance(node, list):
        for value in node:
            rebase(value, where)


for number, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    where = f"line {number}"
    request = json.loads(line)
    counts["requests"] += 1
    if set(request) == {"resourceSpans"}:
        for resource in request["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    counts["spans"] += 1
                    if int(span["endTimeUnixNano"]) < int(span["startTimeUnixNano"]):
                        problems.append(f"{where}: span {span['name']!r} ends before it starts")
                    if "parentSpanId" in span and (span["traceId"], span["parentSpanId"]) not in spans_seen:
                        problems.append(f"{where}: span {span['name']!r} has a parent not in its trace")
                    spans_seen[(span["traceId"], span["spanId"])] = span["name"]
        message = trace_service_pb2.ExportTraceServiceRequest()
    elif set(request) == {"resourceLogs"}:
        for resource in request["resourceLogs"]:
            for scope in resource["scopeLogs"]:
                for record in scope["logRecords"]:
                    counts["logs"] += 1
                    if "traceId" in record and (record["traceId"], record["spanId"]) not in spans_seen:
                        problems.append(f"{where}: a log record's span is not a span written before it")
        message = logs_service_pb2.ExportLogsServiceRequest()
    else:
        problems.append(f"{where}: neither resourceSpans nor resourceLogs: {sorted(request)}")
        continue
    rebase(request, where)
    try:
        json_format.ParseDict(request, message, ignore_unknown_fields=False)
    except json_format.ParseError as error:
        problems.append(f"{where}: {error}")

for problem in problems[:50]:
    print(problem)
print(f"checked {counts['requests']} requests: {counts['spans']} spans, {counts['logs']} log records")
sys.exit(1 if problems else 0)
