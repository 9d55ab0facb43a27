"""Bounds of a YAML file, checked before the loader does any work that could take long.

`text_fits` runs before parsing: the file's size and the number of marks that can separate values
(the parser takes about 60 microseconds a value, so a large file of small values would take
minutes). `tree_fits` runs on the composed node tree, before anything is copied: aliases are shared
nodes there, so the size and depth of the document *once aliases are expanded* are measured in
time proportional to the file, and an alias bomb is refused at once instead of being built. See
`limits.py` for the values (Y011 too large, Y005 expands too far, Y008 nested too deep).
"""

from __future__ import annotations

from ruamel.yaml.nodes import MappingNode, Node, SequenceNode

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, Span

MAX_NODES = limits.MAX_YAML_VALUES
MAX_DEPTH = limits.MAX_YAML_DEPTH
_MARKS = ",:[{-\n"


def text_fits(text: str, file: str, report: Report) -> bool:
    """False (with an error) when the text is too large to parse quickly."""
    if len(text) > limits.MAX_FILE_BYTES:
        too_large(file, report)
        return False
    if sum(text.count(mark) for mark in _MARKS) > limits.MAX_YAML_MARKS:
        report.error(
            "Y011",
            f"{file} has more than {limits.MAX_YAML_MARKS} values, keys or lines (',', ':', '-', '[', '{{')",
            None,
            "split it into several files of the game's folder",
        )
        return False
    return True


def too_large(file: str, report: Report) -> None:
    report.error(
        "Y011",
        f"{file} is larger than {limits.MAX_FILE_BYTES} bytes",
        None,
        "a game's files are small text files; split a large one, or look for generated data",
    )


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


def tree_fits(root: Node, file: str, report: Report) -> bool:
    """False (with an error) when aliases expand the document past the limits, or into itself.

    Aliases are shared nodes in the composed tree, so the size and depth of every node are found
    once (an explicit stack: the expanded depth is what is being checked, so no recursion).
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    uses: dict[int, int] = {}
    nodes: dict[int, Node] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
            on_path.discard(key)
            continue
        uses[key] = uses.get(key, 0) + 1
        if key in size:
            continue
        if key in on_path:
            report.error("Y005", "an alias refers to a node that contains it", _node_span(file, node))
            return False
        on_path.add(key)
        nodes[key] = node
        stack.append((node, True))
        stack.extend((kid, False) for kid in reversed(_children(node)))
    if size[id(root)] > MAX_NODES:
        copied = max(
            (k for k in uses if uses[k] > 1), key=lambda k: (uses[k] - 1) * size[k], default=id(root)
        )
        anchor = getattr(nodes[copied], "anchor", None)
        hint = (
            f"the alias '*{anchor}' copies {size[copied]} values, {uses[copied] - 1} times"
            if anchor and uses[copied] > 1
            else None
        )
        message = f"the document expands to more than {MAX_NODES} values (nested aliases?)"
        report.error("Y005", message, _node_span(file, nodes[copied]), hint)
        return False
    # Levels as the composer counts them (a scalar is one level below its list or mapping): the
    # first node past the limit is reported, where the composer would report it.
    if depth[id(root)] > MAX_DEPTH + 1:
        node = root
        for _ in range(MAX_DEPTH + 1):
            node = max(_children(node), key=lambda k: depth[id(k)])
        too_deep(_node_span(file, node), report)
        return False
    return True


def _node_span(file: str, node: Node) -> Span:
    mark = node.start_mark
    return Span.point(file, mark.line + 1, mark.column + 1)


def too_deep(span: Span | None, report: Report) -> None:
    report.error(
        "Y008",
        f"mappings and lists are nested more than {MAX_DEPTH} deep",
        span,
        "game files need only a few levels; look for unclosed '[' or '{', or aliases inside aliases",
    )
