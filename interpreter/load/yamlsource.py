"""YAML text -> plain Python data plus the position of every node (first step of the `load` stage).

Input: one YAML file or text. Output: a `YamlDoc` (positions.py): plain data (dict, list, str, int,
float, bool, None; no ruamel types) with a span for every key and value and a `ScalarOrigin` for
every scalar. A game folder's files are merged by gamefolder.py.

Invariants: nothing past this module sees a ruamel object; loading never raises on author input,
every problem becomes a Diagnostic in the Report (codes `Y0xx`). Every value loaded survives a JSON
round trip exactly: keys are text (a number key is Y009), numbers are finite and have at most
`limits.MAX_INT_DIGITS` digits (Y010). Names are normalised (NFKC, as Python reads identifiers):
every key, and every text that is a name once normalised; two that become the same name are Y007.
The file size, the values after alias expansion and the nesting depth are bounded (Y011, Y005, Y008:
`bounds.py`) and measured before anything is copied, so a hostile file is refused at once.

Why we compose instead of `YAML().load()`: the round-trip parser's node tree keeps a start and end
mark for every node (the loaded CommentedMap's `lc` only knows where keys and values start) and the
scalar style, and building the data ourselves lets us report *every* duplicate key instead of
stopping at the first one.
"""

from __future__ import annotations

import math
import re
import unicodedata
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import MaxDepthExceededError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, Span, register_source
from tabula.interpreter.load import bounds, unsaved
from tabula.interpreter.load.positions import ScalarOrigin, ScalarStyle, YamlDoc, YamlPath

_STYLES: dict[str | None, ScalarStyle] = {
    None: "plain",
    "'": "single",
    '"': "double",
    "|": "literal",
    ">": "folded",
}
_CORE = "tag:yaml.org,2002:"
_MERGE_TAG = _CORE + "merge"
_PLAIN_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_MAX_NODES = limits.MAX_YAML_VALUES
# A plain name once normalised: what NFKC may turn a scalar into for it to count as a name.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# ruamel counts these as line breaks; positions must be computed the same way.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def load_yaml_file(path: Path, report: Report) -> YamlDoc | None:
    """Load one YAML file; problems go to `report` and the result is None if it could not be parsed.

    Spans name the file as `str(path)`, so a relative path stays relative. A text given in place of
    the file (`unsaved.texts_in_place_of_files`) is read instead of the disk's.
    """
    file = str(path)
    text = unsaved.unsaved_text(path)
    if text is not None:
        if len(text.encode("utf-8", errors="replace")) > limits.MAX_FILE_BYTES:
            bounds.too_large(file, report)
            return None
        return _load_kept(text, file, report)
    try:
        with path.open("rb") as stream:
            # Never read more than the limit: the file may be huge, or never end.
            raw = stream.read(limits.MAX_FILE_BYTES + 1)
        if len(raw) > limits.MAX_FILE_BYTES:
            bounds.too_large(file, report)
            return None
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        report.error("Y000", f"cannot read {file}: not UTF-8 text ({exc.reason})", None)
        return None
    except OSError as exc:
        report.error("Y000", f"cannot read {file}: {exc.strerror or exc}", None)
        return None
    return _load_kept(text, file, report)


def _load_kept(text: str, file: str, report: Report) -> YamlDoc | None:
    """`load_yaml_text`, or the document an earlier check parsed from the same text (unsaved.py)."""
    if not unsaved.remembering():
        return load_yaml_text(text, file, report)
    kept = unsaved.recall(file, text)
    if kept is not None:
        register_source(file, text)
        report.diagnostics.extend(kept[1])
        return kept[0]  # type: ignore[no-any-return]
    own = Report()
    doc = load_yaml_text(text, file, own)
    report.extend(own)
    unsaved.keep(file, text, doc, own.diagnostics)
    return doc


def load_yaml_text(text: str, file: str, report: Report) -> YamlDoc | None:
    """Load YAML from a string; `file` is the name used in spans (and for rendering snippets)."""
    register_source(file, text)
    if not bounds.text_fits(text, file, report):
        return None
    yaml = YAML(typ="rt")
    # The composer recurses once per level (a scalar is one level below its container).
    yaml.max_depth = limits.MAX_YAML_DEPTH + 1
    try:
        root = yaml.compose(text)
    except MaxDepthExceededError as exc:
        bounds.too_deep(_mark_span(exc, file, False), report)
        return None
    except YAMLError as exc:
        _report_syntax_error(exc, file, text, report)
        return None
    except RecursionError:
        bounds.too_deep(None, report)
        return None
    if root is not None and not bounds.tree_fits(root, file, report):
        return None
    doc = YamlDoc(file, None)
    if root is not None:
        doc.data = _Builder(doc, text, report).build(root, ())
    return doc


class _Builder:
    """Walks a composed node tree, building plain data and recording positions in a YamlDoc."""

    def __init__(self, doc: YamlDoc, text: str, report: Report) -> None:
        self.doc = doc
        self.text = text
        self.report = report
        self.line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
        # The round-trip constructor knows YAML 1.2 scalar syntax (0x1F, .inf, folding, ...).
        self.constructor = YAML(typ="rt").constructor
        self.active: set[int] = set()
        # Aliases are expanded into copies (each copy has its own path and positions), so a few
        # nested aliases could make a small file explode; a hostile file gets an error instead.
        self.budget = _MAX_NODES

    def span(self, node: Node) -> Span:
        start, end = node.start_mark, node.end_mark
        end_line, end_col = end.line + 1, end.column + 1
        if (end_line, end_col) <= (start.line + 1, start.column + 1):
            end_line, end_col = start.line + 1, start.column + 2
        return Span(self.doc.file, start.line + 1, start.column + 1, end_line, end_col)

    def build(self, node: Node, path: YamlPath) -> Any:
        self.budget -= 1
        if self.budget < 0:
            if self.budget == -1:
                message = f"the document expands to more than {_MAX_NODES} values (nested aliases?)"
                self.report.error("Y005", message, self.span(node))
            return None
        self.doc.value_span[path] = self.span(node)
        if id(node) in self.active:
            self.report.error("Y005", "an alias refers to a node that contains it", self.span(node))
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, MappingNode):
                if str(node.tag) != _CORE + "map":
                    self.unsupported_tag(str(node.tag), node)
                return self.mapping(node, path)
            if isinstance(node, SequenceNode):
                if str(node.tag) != _CORE + "seq":
                    self.unsupported_tag(str(node.tag), node)
                items = [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
                self.name_collisions(items, node.value, path)
                return items
            # Composed trees hold only the three node kinds; anything else has no data.
            return self.scalar(node, path) if isinstance(node, ScalarNode) else None
        finally:
            self.active.discard(id(node))

    def scalar(self, node: ScalarNode, path: YamlPath) -> Any:
        value = self.scalar_value(node)
        if value is not None:
            self.doc.value_origin[path] = self.origin(node, value if isinstance(value, str) else node.value)
        if isinstance(value, str) and not value.isascii():
            # A value that is a name once normalised (a list of parameters, of symbols, an id) is
            # read as that name, as Python reads identifiers; other text is kept as written.
            normal = unicodedata.normalize("NFKC", value)
            if _NAME.fullmatch(normal):
                return normal
        return value

    def scalar_value(self, node: ScalarNode) -> Any:
        tag = str(node.tag)
        if tag not in _PLAIN_TAGS:
            self.unsupported_tag(tag, node)
            return str(node.value)
        if tag == _CORE + "int" and len(str(node.value).lstrip("+-")) > limits.MAX_INT_DIGITS + 2:
            return self.too_big(node)  # before int(): Python refuses to read 4,300 digits or more
        value = self.constructor.construct_object(node, deep=True)
        # Strip ruamel's scalar subclasses (ScalarInt, LiteralScalarString, ...).
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            return int(value) if abs(value) < 10**limits.MAX_INT_DIGITS else self.too_big(node)
        if isinstance(value, float):
            if not math.isfinite(value):
                return self.not_finite(node)
            return float(value)
        if isinstance(value, str):
            return str(value)
        return str(node.value)  # timestamps and the like stay as written

    def too_big(self, node: ScalarNode) -> None:
        self.report.error(
            "Y010",
            f"this number has more than {limits.MAX_INT_DIGITS} digits",
            self.span(node),
            "numbers in game files and scenarios have at most 20 digits (every seed below 2^64 fits)",
        )

    def not_finite(self, node: ScalarNode) -> None:
        self.report.error(
            "Y010",
            f"'{node.value}' is not a finite number",
            self.span(node),
            "a game's values are saved as JSON, which has no NaN or infinity: write a number",
        )

    def name_collisions(self, items: list[Any], nodes: list[Node], path: YamlPath) -> None:
        """Two items of one list that became the same name only through normalisation."""
        first: dict[str, int] = {}
        for i, (item, node) in enumerate(zip(items, nodes, strict=True)):
            if not isinstance(item, str) or not isinstance(node, ScalarNode):
                continue
            j = first.setdefault(item, i)
            if j != i and str(nodes[j].value) != str(node.value):
                self.collision(str(node.value), item, f"item {j + 1} of this list", self.span(node))

    def unsupported_tag(self, tag: str, node: Node) -> None:
        self.report.error(
            "Y005",
            f"unsupported YAML tag '{tag}'",
            self.span(node),
            hint="game files use plain YAML values; remove the tag",
        )

    def origin(self, node: ScalarNode, text: str) -> ScalarOrigin:
        style = _STYLES.get(node.style, "plain")
        start, end = node.start_mark, node.end_mark
        if style in ("literal", "folded"):
            first = min(start.line + 1, len(self.line_starts) - 1)
            raw = self.text[self.line_starts[first] : end.index]
            indent = _block_indent(raw, text)
            return ScalarOrigin(self.doc.file, first + 1, indent + 1, style, indent, raw, text)
        raw = self.text[self.line_starts[start.line] : end.index]
        col = start.column + (1 if style == "plain" else 2)
        return ScalarOrigin(self.doc.file, start.line + 1, col, style, start.column, raw, text)

    def mapping(self, node: MappingNode, path: YamlPath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        merges: list[Node] = []
        written: dict[str | int, str] = {}  # each key as the file writes it
        cut = 0  # brackets still open in a key of a one-line map cut at a comma (Y012)
        for key_node, value_node in node.value:
            if str(key_node.tag) == _MERGE_TAG:
                merges.append(value_node)
                continue
            if node.flow_style and isinstance(key_node, ScalarNode):
                depth = _unbalanced(str(key_node.value))
                if cut > 0 or depth > 0:  # the cut key and its pieces are skipped
                    if cut == 0:
                        self.cut_key(key_node)
                    cut += depth
                    continue
            key = self.key(key_node, path)
            if key is None:
                continue
            child = (*path, key)
            if key in result:
                if written[key] != str(key_node.value):
                    first = self.doc.key_span[child]
                    self.collision(
                        str(key_node.value), str(key), f"the key at line {first.line}", self.span(key_node)
                    )
                else:
                    self.duplicate(key, key_node, child)
                continue
            written[key] = str(key_node.value)
            self.doc.key_span[child] = self.span(key_node)
            result[key] = self.build(value_node, child)
            if result[key] is None and value_node.start_mark.index == value_node.end_mark.index:
                # An empty value has no text; its marks point at the next token. Point at the ':'.
                key_end = self.doc.key_span[child]
                self.doc.value_span[child] = Span.point(self.doc.file, key_end.end_line, key_end.end_col)
        for merged in merges:
            self.merge(merged, path, result)
        return result

    def merge(self, node: Node, path: YamlPath, result: dict[Any, Any]) -> None:
        # `<<: *base` (or a list of aliases): entries written explicitly win over merged ones.
        sources = node.value if isinstance(node, SequenceNode) else [node]
        for source in sources:
            if not isinstance(source, MappingNode):
                self.report.error("Y005", "'<<' must be followed by a mapping or an alias", self.span(source))
                continue
            for key_node, value_node in source.value:
                key = self.key(key_node, path)
                if key is not None and key not in result:
                    self.doc.key_span[(*path, key)] = self.span(key_node)
                    result[key] = self.build(value_node, (*path, key))

    def key(self, node: Node, path: YamlPath = ()) -> str | int | None:
        """A mapping key: text, normalised (NFKC) as every name is; a number is refused, except as
        a key of a constant table (`constants: {hand_size: {2: 5, 3: 4}}`), which the rules only
        ever index (a table keyed by numbers is never a value of the state: compile/ checks it)."""
        if not isinstance(node, ScalarNode):
            self.report.error("Y005", "a mapping key must be a plain value", self.span(node))
            return None
        if str(node.tag) == _CORE + "int" and len(path) == 2 and path[0] == "constants":
            number = self.scalar_value(node)
            if isinstance(number, int) and not isinstance(number, bool):
                return number
        if str(node.tag) == _CORE + "int":
            # JSON (saves, views) has only text keys: an integer key would come back as text.
            self.report.error(
                "Y009",
                f"a mapping key must be text, not the number {node.value}",
                self.span(node),
                f"write '{node.value}': in quotes, or use a list indexed by the number",
            )
            return None
        tag = str(node.tag)
        value = self.scalar_value(node) if tag == _CORE + "str" or tag not in _PLAIN_TAGS else None
        text = value if isinstance(value, str) else str(node.value)  # `true:`, `1.5:` as written
        return unicodedata.normalize("NFKC", text)

    def collision(self, written: str, name: str, other: str, span: Span) -> None:
        self.report.error(
            "Y007",
            f"'{written}' is the name '{name}' once Unicode-normalised (NFKC), the same as {other}",
            span,
            "names that look alike are the same name: write both the same way, or rename one",
        )

    def cut_key(self, node: ScalarNode) -> None:
        """Y012 at a key of a one-line map that opens a bracket it does not close: YAML cut it at a
        comma (`{gems(Ann, white): 1}` reads the keys 'gems(Ann' and 'white)')."""
        self.report.error(
            "Y012",
            f"the key '{node.value}' is cut at a comma: in a one-line {{...}} map a comma ends a key",
            self.span(node),
            "quote a key that has a comma, {'gems(Ann, white)': 1}, or write the map one key a line",
        )

    def duplicate(self, key: str | int, node: Node, path: YamlPath) -> None:
        first = self.doc.key_span[path]
        again = self.span(node)
        self.report.error(
            "Y002",
            f"duplicate key '{key}': first defined at line {first.line}, again at line {again.line}",
            again,
            hint="a key may appear only once in a mapping; merge the two entries or rename one",
        )


def _unbalanced(text: str) -> int:
    """Brackets a key opens and does not close (negative: closes more than it opens)."""
    return text.count("(") + text.count("[") - text.count(")") - text.count("]")


def _block_indent(raw: str, text: str) -> int:
    """The content indentation of a block scalar: file indentation minus what the value keeps."""
    file_line = next((line for line in raw.split("\n") if line.strip()), "")
    value_line = next((line for line in text.split("\n") if line.strip()), "")
    file_lead = len(file_line) - len(file_line.lstrip(" "))
    value_lead = len(value_line) - len(value_line.lstrip(" "))
    return max(file_lead - value_lead, 0)


# ---------------------------------------------------------------------------------------------
# Syntax errors
# ---------------------------------------------------------------------------------------------

# (pattern on "problem | context", message ({problem} is ruamel's), hint, point at the context mark
# instead of the problem mark: for an unclosed quote or bracket the problem mark is the end of file)
_SYNTAX_HINTS: list[tuple[str, str | None, str, bool]] = [
    (
        r"found character '\\t'",
        "tab character in indentation",
        "YAML indentation must use spaces, not tabs",
        False,
    ),
    (
        r"end of stream.*quoted scalar",
        "quoted string is never closed",
        "add the closing quote (write '' for a quote inside '...', or \\\" inside \"...\")",
        True,
    ),
    (
        r"mapping values are not allowed",
        None,
        "a ': ' inside a plain value starts a mapping: quote the value, or check the indentation",
        False,
    ),
    (
        r"could not find expected ':'",
        None,
        "a key needs ':' after it; a value continued on the next line must be indented more than its key",
        True,
    ),
    (
        r"expected <block end>|did not find expected key|expected <block mapping start>",
        "bad indentation",
        "check the indentation: entries of one mapping or list must start in the same column",
        False,
    ),
    (
        r"found character '[@`%]' that cannot start",
        None,
        "'@', '`' and '%' cannot start a plain value: quote the value",
        False,
    ),
    (
        r"found another document",
        "more than one YAML document in the file",
        "a file holds one YAML document: remove the '---' line",
        False,
    ),
    (
        r"undefined alias",
        None,
        "'*name' must refer to an anchor '&name' defined earlier in the file",
        False,
    ),
    (
        r"flow (sequence|mapping)",
        "this bracket is not closed ({problem})",
        "close the bracket opened here, and quote items containing ',', ':', '[', ']', '{' or '}'",
        True,
    ),
]


def _report_syntax_error(exc: YAMLError, file: str, text: str, report: Report) -> None:
    if isinstance(exc, ReaderError):
        line, col = _line_col(text, exc.position)
        report.error(
            "Y001",
            f"YAML syntax error: character {_describe_char(exc.character)} is not allowed",
            Span.point(file, line, col),
            hint="remove control characters; game files are UTF-8 text",
        )
        return
    problem = str(getattr(exc, "problem", None) or exc)
    context = str(getattr(exc, "context", None) or "")
    message, hint, use_context = problem, None, False
    for pattern, better, advice, at_context in _SYNTAX_HINTS:
        if re.search(pattern, f"{problem} | {context}"):
            message, hint, use_context = (better or "{problem}").format(problem=problem), advice, at_context
            break
    report.error("Y001", f"YAML syntax error: {message}", _mark_span(exc, file, use_context), hint=hint)


def _describe_char(character: int | str) -> str:
    code = character if isinstance(character, int) else ord(character[:1] or "\0")
    return f"U+{code:04X}"


def _mark_span(exc: YAMLError, file: str, use_context: bool) -> Span | None:
    if not isinstance(exc, MarkedYAMLError):
        return None
    mark = exc.context_mark if use_context and exc.context_mark is not None else exc.problem_mark
    if mark is None:
        return None
    return Span.point(file, mark.line + 1, mark.column + 1)


def _line_col(text: str, index: int) -> tuple[int, int]:
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text, 0, index)]
    return len(starts), index - starts[-1] + 1
