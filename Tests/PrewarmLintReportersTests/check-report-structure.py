"""Checks the reports ReportEscapingPropertyTests wrote: for each seed, the outputs of a report whose string fields hold
hostile text (`N.hostile.EXT`) against those of its twin, the same report with an inert token (`Q7Z`) in each field
(`N.twin.EXT`; `N.tokens.json` maps each token to the text it stands for).

- json, sarif, ndjson: parsed, the same keys and array lengths as the twin; each string is the twin's with its tokens
  replaced (values derived from the text, such as SARIF's fingerprints, are left out by key).
- xml (JUnit): parsed, the same elements and attributes; texts are the twin's with its tokens replaced, characters XML
  cannot hold as U+FFFD.
- html, and md rendered as GitHub renders it (cmark-gfm: tables, strikethrough, autolinks): the same tags and
  attribute names, in the same order, as the twin's.
- every output a person reads (txt, ctxt, html, md rendered, xml and github read back, and the JSON texts as written):
  no invisible format character (a bidirectional control, a zero-width space, a tag…) raw: shown as `<U+202E>`.
- github: the same commands on as many lines; each property and message unescaped is the twin's with its tokens
  replaced.
- txt: as many lines as the twin's, and no control character but line feed and tab; ctxt (coloured): the same escape
  sequences as the twin's, and no other control character.

Prints one line per problem and exits 1 if any; prints "checked N reports" at the end.
"""
import html.parser
import json
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree

folder, seeds = sys.argv[1], sys.argv[2:]
problems = []
TOKEN = re.compile(r"Q[0-9]+Z")
DERIVED_KEYS = {"prewarmLintFinding/v2"}


def read(seed, side, kind):
    with open(f"{folder}/{seed}.{side}.{kind}", encoding="utf-8", newline="") as file:
        return file.read()


def expand(text, tokens, transform=lambda s: s):
    return TOKEN.sub(lambda match: transform(tokens[match.group(0)]), text)


def compare_json(hostile, twin, tokens, where, seed, kind):
    if type(hostile) is not type(twin):
        problems.append(f"{seed}.{kind} {where}: {type(hostile).__name__} where the twin has {type(twin).__name__}")
    elif isinstance(twin, dict):
        if set(hostile) != set(twin):
            problems.append(f"{seed}.{kind} {where}: keys {sorted(set(hostile) ^ set(twin))} differ")
            return
        for key in twin:
            if key not in DERIVED_KEYS:
                compare_json(hostile[key], twin[key], tokens, f"{where}.{key}", seed, kind)
    elif isinstance(twin, list):
        if len(hostile) != len(twin):
            problems.append(f"{seed}.{kind} {where}: {len(hostile)} elements, the twin {len(twin)}")
            return
        for index, (a, b) in enumerate(zip(hostile, twin)):
            compare_json(a, b, tokens, f"{where}[{index}]", seed, kind)
    elif isinstance(twin, str):
        if where.endswith(".uri"):
            # A URI: its text percent-encoded (SARIF's artifact locations).
            hostile, twin = urllib.parse.unquote(hostile), urllib.parse.unquote(twin)
        if expand(twin, tokens) != hostile:
            problems.append(f"{seed}.{kind} {where}: {hostile!r} read back, {expand(twin, tokens)!r} written")
    elif hostile != twin:
        problems.append(f"{seed}.{kind} {where}: {hostile!r}, the twin {twin!r}")


def invisible(c):
    o = ord(c)
    return o in (0x00AD, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F, 0x3164, 0xFEFF, 0xFFA0) or \
        0x202A <= o <= 0x202E or 0x2060 <= o <= 0x2064 or 0x2066 <= o <= 0x2069 or 0xFFF9 <= o <= 0xFFFB or 0xE0000 <= o <= 0xE007F


def shown(c):
    return f"<U+{ord(c):04X}>" if invisible(c) else c


def check_invisible(text, seed, kind):
    found = sorted({f"U+{ord(c):04X}" for c in text if invisible(c)})
    if found:
        problems.append(f"{seed}.{kind}: invisible format characters {found} raw")


def xml_text(text):
    # What XML 1.0 can hold: the escaping writes U+FFFD for the rest (and a parser reads CR as written by reference);
    # an invisible format character is shown.
    return "".join(shown(c) if c in "\t\n\r" or 0x20 <= ord(c) < 0xD800 or 0xE000 <= ord(c) < 0xFFFE or ord(c) > 0xFFFF
                   else "\ufffd" for c in text)


def compare_xml(hostile, twin, tokens, where, seed):
    if hostile.tag != twin.tag or set(hostile.attrib) != set(twin.attrib) or len(hostile) != len(twin):
        problems.append(f"{seed}.xml {where}: <{hostile.tag}> {sorted(hostile.attrib)} with {len(hostile)} children, "
                        f"the twin <{twin.tag}> {sorted(twin.attrib)} with {len(twin)}")
        return
    for name, value in twin.attrib.items():
        if expand(value, tokens, xml_text) != hostile.attrib[name]:
            problems.append(f"{seed}.xml {where}@{name}: {hostile.attrib[name]!r} read back, {expand(value, tokens, xml_text)!r} written")
    for a, b in ((hostile.text, twin.text), (hostile.tail, twin.tail)):
        if expand(b or "", tokens, xml_text).strip() != (a or "").strip():
            problems.append(f"{seed}.xml {where} text: {a!r} read back, {expand(b or '', tokens, xml_text)!r} written")
    for index, (a, b) in enumerate(zip(hostile, twin)):
        compare_xml(a, b, tokens, f"{where}/{b.tag}[{index}]", seed)


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(sorted(name for name, _ in attrs))))

    def handle_endtag(self, tag):
        self.tags.append(("/" + tag, ()))

    def handle_comment(self, data):
        self.tags.append(("<!--", ()))


def tags(text):
    parser = Tags()
    parser.feed(text)
    parser.close()
    return parser.tags


def compare_tags(hostile, twin, seed, kind):
    a, b = tags(hostile), tags(twin)
    if a != b:
        index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        problems.append(f"{seed}.{kind}: tag {index} is {a[index] if index < len(a) else 'missing'}, "
                        f"the twin's {b[index] if index < len(b) else 'missing'} ({len(a)} tags, the twin {len(b)})")


try:
    import cmarkgfm
    from cmarkgfm.cmark import Options

    class GitHubMarkdown:
        # What GitHub renders: GFM with its extensions (tables, strikethrough, autolinks, tag filter), raw HTML kept
        # (GitHub sanitizes it after; a tag the report lets through must show here).
        @staticmethod
        def render(text):
            return cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    markdown = GitHubMarkdown()
except ImportError:
    markdown = None
    print("NO-MARKDOWN-RENDERER")

COMMAND = re.compile(r"^::([a-z-]+)(?: ([^:]*))?::(.*)$")


def unescape(text):
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m.group(1)], text)


def github_visible(text):
    # Controls other than line breaks are shown, not sent to the runner's log viewer (as \xNN), and so are invisible
    # format characters (as <U+NNNN>).
    return "".join(shown(c) if c in "\r\n" or not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or ord(c) in (0x2028, 0x2029))
                   else (f"\\x{ord(c):02X}" if ord(c) <= 0xFF else f"\\u{{{ord(c):04X}}}") for c in text)


def commands(text, seed):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    parsed = []
    for line in lines:
        match = COMMAND.match(line)
        if not match:
            problems.append(f"{seed}.github: a line that is no command: {line[:120]!r}")
            continue
        properties = {}
        for pair in (match.group(2) or "").split(","):
            if pair:
                name, _, value = pair.partition("=")
                properties[name] = unescape(value)
        parsed.append((match.group(1), properties, unescape(match.group(3))))
    return parsed


for seed in seeds:
    tokens = json.loads(read(seed, "tokens", "json"))
    for kind in ("json", "sarif", "ndjson", "xml", "html", "md", "github", "txt", "ctxt"):
        check_invisible(read(seed, "hostile", kind), seed, kind)
    if markdown:
        check_invisible(markdown.render(read(seed, "hostile", "md")), seed, "md rendered")
    for kind in ("json", "sarif"):
        try:
            compare_json(json.loads(read(seed, "hostile", kind)), json.loads(read(seed, "twin", kind)), tokens, "$", seed, kind)
        except ValueError as error:
            problems.append(f"{seed}.{kind}: not JSON: {error}")
    # Lines are split at line feeds only (str.splitlines also splits at U+2028, U+0085…, which JSON holds raw).
    hostile_lines, twin_lines = read(seed, "hostile", "ndjson").split("\n")[:-1], read(seed, "twin", "ndjson").split("\n")[:-1]
    if len(hostile_lines) != len(twin_lines):
        problems.append(f"{seed}.ndjson: {len(hostile_lines)} lines, the twin {len(twin_lines)}")
    for index, (a, b) in enumerate(zip(hostile_lines, twin_lines)):
        try:
            compare_json(json.loads(a), json.loads(b), tokens, f"line {index + 1}", seed, "ndjson")
        except ValueError as error:
            problems.append(f"{seed}.ndjson line {index + 1}: not JSON: {error}")
    try:
        compare_xml(ElementTree.fromstring(read(seed, "hostile", "xml")), ElementTree.fromstring(read(seed, "twin", "xml")), tokens, "", seed)
    except ElementTree.ParseError as error:
        problems.append(f"{seed}.xml: not XML: {error}")
    compare_tags(read(seed, "hostile", "html"), read(seed, "twin", "html"), seed, "html")
    if markdown:
        # (An e-mail address's `@` is written as a code span, so that GitHub does not link the address: not a structure.)
        rendered = re.sub(r"<code>@</code>(?=[A-Za-z0-9.+\-_])", "@", markdown.render(read(seed, "hostile", "md")))
        compare_tags(rendered, markdown.render(read(seed, "twin", "md")), seed, "md")
    hostile_commands, twin_commands = commands(read(seed, "hostile", "github"), seed), commands(read(seed, "twin", "github"), seed)
    if len(hostile_commands) != len(twin_commands):
        problems.append(f"{seed}.github: {len(hostile_commands)} commands, the twin {len(twin_commands)}")
    for (command, properties, message), (twin_command, twin_properties, twin_message) in zip(hostile_commands, twin_commands):
        expected = (twin_command, {k: expand(v, tokens, github_visible) for k, v in twin_properties.items()}, expand(twin_message, tokens, github_visible))
        if (command, properties, message) != expected:
            problems.append(f"{seed}.github: {(command, properties, message)!r} read back, {expected!r} written")
    text, twin_text = read(seed, "hostile", "txt"), read(seed, "twin", "txt")
    if text.count("\n") != twin_text.count("\n"):
        problems.append(f"{seed}.txt: {text.count(chr(10))} lines, the twin {twin_text.count(chr(10))}")
    controls = sorted({f"U+{ord(c):04X}" for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F})
    if controls:
        problems.append(f"{seed}.txt: control characters {controls}")

    text, twin_text = read(seed, "hostile", "ctxt"), read(seed, "twin", "ctxt")
    SGR = re.compile("\x1b\\[[0-9;]*m")
    if SGR.findall(text) != SGR.findall(twin_text):
        problems.append(f"{seed}.ctxt: escape sequences {SGR.findall(text)[:20]} where the twin has {SGR.findall(twin_text)[:20]}")
    controls = sorted({f"U+{ord(c):04X}" for c in SGR.sub("", text) if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F})
    if controls:
        problems.append(f"{seed}.ctxt: control characters {controls}")

for problem in problems[:60]:
    print(problem)
if len(problems) > 60:
    print(f"… and {len(problems) - 60} more")
print(f"checked {len(seeds)} reports")
sys.exit(1 if problems else 0)
