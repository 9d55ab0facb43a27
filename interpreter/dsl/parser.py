"""DSL text -> AST, with every node's span mapped back to the author's YAML file.

Stage: parse. Input: the text of one YAML scalar and its origin (which maps positions inside the
text to file positions). Output: an `ast.Expr` or an `ast.Block`, or diagnostics in a Report.
The Lark Transformer here only builds nodes; it never looks anything up or evaluates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Protocol

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from tabula.grammar import GRAMMAR_PATH
from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.indentation import indented_line, stray_dedent


class TextOrigin(Protocol):
    """Where a DSL string lives: its file and a map from (line, col) in the text to the file."""

    file: str

    def locate(self, line: int, col: int) -> tuple[int, int]: ...


class PlainOrigin:
    """An origin for DSL text that is a file of its own (tests, generated code)."""

    def __init__(self, file: str = "<dsl>", line: int = 1, col: int = 1) -> None:
        self.file = file
        self._line = line
        self._col = col

    def locate(self, line: int, col: int) -> tuple[int, int]:
        if line == 1:
            return self._line, self._col + col - 1
        return self._line + line - 1, col


class _DslIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        postlex=_DslIndenter(),
        start=["block", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
    )


class _Spans:
    """Turns Lark positions (in the text handed to Lark) into absolute spans."""

    def __init__(self, original: str, origin: TextOrigin, flat: bool) -> None:
        self.original = original
        self.origin = origin
        self.flat = flat  # expressions are parsed with newlines turned into spaces
        self._line_starts = [0]
        for i, ch in enumerate(original):
            if ch == "\n":
                self._line_starts.append(i + 1)

    def _text_pos(self, line: int, col: int, offset: int | None) -> tuple[int, int]:
        if self.flat and offset is not None:
            row = 0
            while row + 1 < len(self._line_starts) and self._line_starts[row + 1] <= offset:
                row += 1
            return row + 1, offset - self._line_starts[row] + 1
        return line, col

    def span(
        self, line: int, col: int, end_line: int, end_col: int, start: int | None, end: int | None
    ) -> Span:
        tl, tc = self._text_pos(line, col, start)
        el, ec = self._text_pos(end_line, end_col, end)
        fl, fc = self.origin.locate(tl, tc)
        fel, fec = self.origin.locate(el, ec)
        if (fel, fec) <= (fl, fc):
            fel, fec = fl, fc + 1
        return Span(self.origin.file, fl, fc, fel, fec)

    def of_meta(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return self.span(1, 1, 1, 2, 0, 1)
        return self.span(meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos)

    def of_token(self, tok: Token) -> Span:
        return self.span(
            tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 2, tok.start_pos, tok.end_pos
        )


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


@v_args(meta=True)
class _Build(Transformer[Token, Any]):
    """Lark tree -> AST nodes (construction only)."""

    def __init__(self, spans: _Spans, report: Report, parse_template: Callable[..., Any]) -> None:
        super().__init__()
        self.s = spans
        self.report = report
        self.parse_template = parse_template

    # -- expressions
    def number(self, meta: Any, c: list[Any]) -> ast.Number:
        if len(c[0]) > limits.MAX_INT_DIGITS:  # int() itself refuses 4,300 digits and more
            self.report.error(
                "D006",
                f"this number has more than {limits.MAX_INT_DIGITS} digits",
                self.s.of_meta(meta),
                "numbers in the rules have at most 20 digits",
            )
            return ast.Number(self.s.of_meta(meta), 0)
        return ast.Number(self.s.of_meta(meta), int(c[0]))

    def string(self, meta: Any, c: list[Any]) -> ast.String:
        return ast.String(self.s.of_meta(meta), _unquote(c[0]))

    def true(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self.s.of_meta(meta), True)

    def false(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self.s.of_meta(meta), False)

    def none(self, meta: Any, c: list[Any]) -> ast.NoneLit:
        return ast.NoneLit(self.s.of_meta(meta))

    def name(self, meta: Any, c: list[Any]) -> ast.Name:
        return ast.Name(self.s.of_meta(meta), str(c[0]))

    def args(self, meta: Any, c: list[Any]) -> tuple[ast.Expr, ...]:
        return tuple(x for x in c if x is not None)

    def kwarg(self, meta: Any, c: list[Any]) -> tuple[str, ast.Expr]:
        return (str(c[0]), c[1])

    def kwargs(self, meta: Any, c: list[Any]) -> tuple[tuple[str, ast.Expr], ...]:
        return tuple(x for x in c if x is not None)

    def counter_name(self, meta: Any, c: list[Any]) -> ast.Name:
        return ast.Name(self.s.of_meta(meta), str(c[0]))

    def counter_call(self, meta: Any, c: list[Any]) -> ast.Call:
        return ast.Call(self.s.of_meta(meta), ast.Name(self.s.of_token(c[0]), str(c[0])), c[1] or ())

    def call(self, meta: Any, c: list[Any]) -> ast.Call:
        return ast.Call(self.s.of_meta(meta), c[0], c[1] or ())

    def generator(self, meta: Any, c: list[Any]) -> ast.Generator:
        return ast.Generator(self.s.of_meta(meta), c[0], str(c[1]), c[2], c[3], c[4], c[5])

    def call_gen(self, meta: Any, c: list[Any]) -> ast.CallGen:
        return ast.CallGen(self.s.of_meta(meta), c[0], c[1])

    def attr(self, meta: Any, c: list[Any]) -> ast.Attr:
        return ast.Attr(self.s.of_meta(meta), c[0], str(c[1]))

    def index(self, meta: Any, c: list[Any]) -> ast.Index:
        return ast.Index(self.s.of_meta(meta), c[0], c[1])

    def list_lit(self, meta: Any, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(self.s.of_meta(meta), c[0] or ())

    def list_comp(self, meta: Any, c: list[Any]) -> ast.ListComp:
        return ast.ListComp(self.s.of_meta(meta), c[0])

    def neg(self, meta: Any, c: list[Any]) -> ast.Neg:
        return ast.Neg(self.s.of_meta(meta), c[0])

    def not_op(self, meta: Any, c: list[Any]) -> ast.Not:
        return ast.Not(self.s.of_meta(meta), c[0])

    def and_op(self, meta: Any, c: list[Any]) -> ast.And:
        return ast.And(self.s.of_meta(meta), c[0], c[1])

    def or_op(self, meta: Any, c: list[Any]) -> ast.Or:
        return ast.Or(self.s.of_meta(meta), c[0], c[1])

    def compare(self, meta: Any, c: list[Any]) -> ast.Compare:
        return ast.Compare(self.s.of_meta(meta), str(c[1]), c[0], c[2])

    def in_op(self, meta: Any, c: list[Any]) -> ast.In:
        return ast.In(self.s.of_meta(meta), c[0], c[1], False)

    def not_in_op(self, meta: Any, c: list[Any]) -> ast.In:
        return ast.In(self.s.of_meta(meta), c[0], c[1], True)

    def binary(self, meta: Any, c: list[Any]) -> ast.Binary:
        return ast.Binary(self.s.of_meta(meta), str(c[1]), c[0], c[2])

    def cond_expr(self, meta: Any, c: list[Any]) -> ast.CondExpr:
        return ast.CondExpr(self.s.of_meta(meta), c[1], c[0], c[2])

    # -- statements
    def block(self, meta: Any, c: list[Any]) -> ast.Block:
        return tuple(x for x in c if isinstance(x, ast.Stmt))

    def inline_suite(self, meta: Any, c: list[Any]) -> ast.Block:
        return (c[0],)

    def indented_suite(self, meta: Any, c: list[Any]) -> ast.Block:
        return tuple(x for x in c if isinstance(x, ast.Stmt))

    def let_stmt(self, meta: Any, c: list[Any]) -> ast.Let:
        return ast.Let(self.s.of_meta(meta), str(c[0]), c[1])

    def set_stmt(self, meta: Any, c: list[Any]) -> ast.Set:
        return ast.Set(self.s.of_meta(meta), c[0], str(c[1]), c[2])

    def gain_stmt(self, meta: Any, c: list[Any]) -> ast.Gain:
        return ast.Gain(self.s.of_meta(meta), c[0], c[1])

    def pay_stmt(self, meta: Any, c: list[Any]) -> ast.Pay:
        return ast.Pay(self.s.of_meta(meta), c[0], c[1])

    def take_stmt(self, meta: Any, c: list[Any]) -> ast.Take:
        return ast.Take(self.s.of_meta(meta), c[0], c[1], c[2])

    def move_stmt(self, meta: Any, c: list[Any]) -> ast.Move:
        return ast.Move(self.s.of_meta(meta), c[0], c[1], c[2] or "bottom")

    def place_top(self, meta: Any, c: list[Any]) -> str:
        return "top"

    def place_bottom(self, meta: Any, c: list[Any]) -> str:
        return "bottom"

    def draw_stmt(self, meta: Any, c: list[Any]) -> ast.Draw:
        return ast.Draw(self.s.of_meta(meta), c[0], c[1], c[2])

    def shuffle_stmt(self, meta: Any, c: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(self.s.of_meta(meta), c[0])

    def reveal_stmt(self, meta: Any, c: list[Any]) -> ast.Reveal:
        return ast.Reveal(self.s.of_meta(meta), c[0], c[1], str(c[2]) if c[2] is not None else None)

    def conceal_stmt(self, meta: Any, c: list[Any]) -> ast.Conceal:
        return ast.Conceal(self.s.of_meta(meta), c[0])

    def hide_stmt(self, meta: Any, c: list[Any]) -> ast.Hide:
        return ast.Hide(self.s.of_meta(meta), c[0], c[1])

    def opt_by(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("by", c[0])

    def opt_prompt(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("prompt", (_unquote(c[0]), self.s.of_token(c[0])))

    def opt_optional(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("optional", True)

    def choose_stmt(self, meta: Any, c: list[Any]) -> ast.Choose:
        opts = dict(c[2:])
        prompt = opts.get("prompt")
        return ast.Choose(
            self.s.of_meta(meta),
            str(c[0]),
            c[1],
            opts.get("by"),
            prompt[0] if prompt else None,
            bool(opts.get("optional")),
            prompt[1] if prompt else None,
        )

    def window_stmt(self, meta: Any, c: list[Any]) -> ast.Window:
        names = [t for t in c[1:] if t is not None]
        return ast.Window(
            self.s.of_meta(meta), c[0], tuple(str(t) for t in names), tuple(self.s.of_token(t) for t in names)
        )

    def run_stmt(self, meta: Any, c: list[Any]) -> ast.Run:
        return ast.Run(self.s.of_meta(meta), str(c[0]), c[1] or ())

    def run_hook_stmt(self, meta: Any, c: list[Any]) -> ast.RunHook:
        # `run a.b.hook(args)`: the target is a name or an attribute chain (a dotted name, so the
        # statement cannot be confused with `run proc(args)`), the last name the hook
        *names, args = c
        target: ast.Expr = ast.Name(self.s.of_token(names[0]), str(names[0]))
        for tok in names[1:-1]:
            target = ast.Attr(self.s.of_token(tok), target, str(tok))
        hook = names[-1]
        return ast.RunHook(self.s.of_meta(meta), target, str(hook), args or (), self.s.of_token(hook))

    def emit_stmt(self, meta: Any, c: list[Any]) -> ast.Emit:
        return ast.Emit(self.s.of_meta(meta), str(c[0]), c[1] or ())

    def log_stmt(self, meta: Any, c: list[Any]) -> ast.Log:
        return ast.Log(self.s.of_meta(meta), _unquote(c[0]), self.s.of_token(c[0]))

    def end_game_stmt(self, meta: Any, c: list[Any]) -> ast.EndGame:
        return ast.EndGame(self.s.of_meta(meta))

    def declare_winner_stmt(self, meta: Any, c: list[Any]) -> ast.DeclareWinner:
        return ast.DeclareWinner(self.s.of_meta(meta), c[0])

    def pass_stmt(self, meta: Any, c: list[Any]) -> ast.Pass:
        return ast.Pass(self.s.of_meta(meta))

    def elif_clause(self, meta: Any, c: list[Any]) -> tuple[ast.Expr, ast.Block]:
        return (c[0], c[1])

    def else_clause(self, meta: Any, c: list[Any]) -> ast.Block:
        return tuple(c[0])

    def if_stmt(self, meta: Any, c: list[Any]) -> ast.If:
        branches = [(c[0], c[1])] + [x for x in c[2:-1] if x is not None]
        return ast.If(self.s.of_meta(meta), tuple(branches), c[-1])

    def for_stmt(self, meta: Any, c: list[Any]) -> ast.For:
        return ast.For(self.s.of_meta(meta), str(c[0]), c[1], c[2], c[3])

    def simultaneous_stmt(self, meta: Any, c: list[Any]) -> ast.Simultaneous:
        return ast.Simultaneous(self.s.of_meta(meta), str(c[0]), c[1], c[2])

    def repeat_stmt(self, meta: Any, c: list[Any]) -> ast.Repeat:
        return ast.Repeat(self.s.of_meta(meta), c[0], c[1])

    def while_stmt(self, meta: Any, c: list[Any]) -> ast.While:
        return ast.While(self.s.of_meta(meta), c[0], c[1])


_TOKEN_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "$END": "end of text",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "MINUS": "'-'",
}

_HINTS = {
    "=": "use '==' to compare; '=' only appears in 'let' and 'set'",
    "&&": "write 'and'",
    "||": "write 'or'",
    "!": "write 'not'",
}


def _describe_expected(expected: Iterator[str] | set[str]) -> str:
    words: list[str] = []
    for name in sorted(expected):
        if name.startswith("__ANON"):
            continue
        word = _TOKEN_WORDS.get(name, repr(name.lower()) if name.isupper() else name)
        if word not in words:
            words.append(word)
    return ", ".join(words[:8]) + (", ..." if len(words) > 8 else "")


def _syntax_error(err: UnexpectedInput, spans: _Spans, report: Report, text: str) -> None:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    pos = getattr(err, "pos_in_stream", None)
    hint: str | None = None
    if isinstance(err, UnexpectedToken):
        tok = err.token
        shown = (
            "end of line" if tok.type == "_NL" else "end of text" if tok.type == "$END" else repr(str(tok))
        )
        expected = _describe_expected(err.accepts or err.expected)
        hint = _HINTS.get(str(tok)) or (f"expected {expected}" if expected else None)
        if tok.type in ("_INDENT", "_DEDENT"):
            line, col, pos = indented_line(tok, text, line, col)
            shown = "indentation" if tok.type == "_INDENT" else "dedent"
            hint = (
                "this line is indented more than the line before it, which opens no block: indent it as "
                "that line is (only a line ending in ':' opens a block)"
                if tok.type == "_INDENT"
                else "this line's indentation matches no enclosing block: indent it as a line above it is"
            )
        message = f"unexpected {shown}"
        if tok.type == "$END" or tok.start_pos is None:
            pos = len(text) - 1
            line, col = spans._text_pos(line, col, pos) if spans.flat else (line, col)
    elif isinstance(err, UnexpectedCharacters):
        at = int(err.pos_in_stream or 0)
        ch = text[at] if at < len(text) else "?"
        message = f"unexpected character {ch!r}"
        two = text[at : at + 2]
        hint = (
            _HINTS.get(two)
            or _HINTS.get(ch)
            or (f"expected {_describe_expected(err.allowed)}" if err.allowed else None)
        )
    elif isinstance(err, UnexpectedEOF):
        message = "the text ends too early"
        hint = f"expected {_describe_expected(set(err.expected))}"
        pos = max(len(text) - 1, 0)
    else:
        message = "syntax error"
    opened = _unclosed_bracket(text, pos if pos is not None else len(text))
    if opened is not None and (
        pos is None
        or "\n" in text[opened:pos]
        or isinstance(err, UnexpectedEOF)
        or (isinstance(err, UnexpectedToken) and err.token.type in ("$END", "_NL"))
    ):
        # an unclosed bracket lets the parser run on past the line: report the bracket itself
        o_line = text.count("\n", 0, opened) + 1
        o_col = opened - (text.rfind("\n", 0, opened) + 1) + 1
        span = spans.span(o_line, o_col, o_line, o_col + 1, opened, opened + 1)
        closer = {"(": ")", "[": "]"}[text[opened]]
        report.error("D001", f"syntax error: '{text[opened]}' is never closed", span, f"add '{closer}'")
        return
    span = spans.span(line, col, line, col + 1, pos, (pos + 1) if pos is not None else None)
    report.error("D001", f"syntax error: {message}", span, hint)


def _unclosed_bracket(text: str, end: int) -> int | None:
    """The offset of the innermost '(' or '[' still open at `end` (strings and comments skipped)."""
    stack: list[int] = []
    quote = ""
    i = 0
    while i < min(end, len(text)):
        ch = text[i]
        if quote:
            if ch == quote or ch == "\n":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif ch in "([":
            stack.append(i)
        elif ch in ")]" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else None


# Lark rules that only group what the node above them holds: they add no level of nesting.
_GROUPING = frozenset({"args", "kwargs", "kwarg", "elif_clause", "else_clause", "block"})
_SUITES = frozenset({"indented_suite", "inline_suite"})


def _too_deep(tree: Tree[Token]) -> tuple[Tree[Token], str] | None:
    """The first node nested past a limit (`limits.MAX_DSL_DEPTH`, `MAX_BLOCK_DEPTH`) and why.

    Measured on Lark's tree, before the AST is built: everything after the parse stage (building,
    checking, compiling, generated code) may then recurse once per level without running out.
    """
    stack: list[tuple[Tree[Token], int, int, Tree[Token]]] = [(tree, 0, 0, tree)]
    while stack:
        node, depth, blocks, parent = stack.pop()
        if node.data in _SUITES:
            blocks += 1
            if blocks > limits.MAX_BLOCK_DEPTH:  # reported at the statement opening the block
                return parent, f"statement blocks are nested more than {limits.MAX_BLOCK_DEPTH} deep"
        elif node.data not in _GROUPING:
            depth += 1
            if depth > limits.MAX_DSL_DEPTH:
                return node, f"this is nested more than {limits.MAX_DSL_DEPTH} deep"
        kids = [kid for kid in reversed(node.children) if isinstance(kid, Tree)]
        stack.extend((kid, depth, blocks, node) for kid in kids)
    return None


def _limit_error(report: Report, message: str, span: Span) -> None:
    report.error(
        "D004",
        message,
        span,
        "name a part of it: a function (functions:) for an expression, a procedure for statements",
    )


def _parse(text: str, origin: TextOrigin, report: Report, start: str) -> Any:
    flat = start == "expr"
    source = text.replace("\r\n", "\n")
    lark_text = source.replace("\n", " ") if flat else (source if source.endswith("\n") else source + "\n")
    spans = _Spans(source, origin, flat)
    if not source.strip():
        report.error(
            "D002",
            "this condition or effect is empty",
            spans.span(1, 1, 1, 2, 0, 1),
            "write an expression, or 'pass' for an effect that does nothing",
        )
        return None
    if len(source) > limits.MAX_DSL_CHARS:
        message = f"this condition or effect is longer than {limits.MAX_DSL_CHARS} characters"
        _limit_error(report, message, spans.span(1, 1, 1, 2, 0, 1))
        return None
    try:
        tree = _parser().parse(lark_text, start=start)
    except UnexpectedInput as err:
        _syntax_error(err, spans, report, lark_text)
        return None
    except DedentError:
        line, col, pos = stray_dedent(lark_text)
        report.error(
            "D001",
            "syntax error: unexpected dedent",
            spans.span(line, col, line, col + 1, pos, pos + 1),
            "this line's indentation matches no enclosing block: indent it as a line above it is",
        )
        return None
    except RecursionError:
        _limit_error(report, "this is nested too deeply to read", spans.span(1, 1, 1, 2, 0, 1))
        return None
    deep = _too_deep(tree)
    if deep is not None:
        _limit_error(report, deep[1], spans.of_meta(deep[0].meta))
        return None
    errors = len(report.errors)
    try:
        node = _Build(spans, report, parse_template).transform(tree)
    except VisitError as err:  # a construction bug, reported at the node
        meta = getattr(err.obj, "meta", None)
        report.error("D003", f"cannot read this: {err.orig_exc}", spans.of_meta(meta) if meta else None)
        return None
    return node if len(report.errors) == errors else None


def parse_expr(text: str, origin: TextOrigin, report: Report) -> ast.Expr | None:
    """Parse a condition or value; syntax errors go to `report` and give None."""
    node = _parse(str(text), origin, report, "expr")
    return node if isinstance(node, ast.Expr) else None


def parse_block(text: str, origin: TextOrigin, report: Report) -> ast.Block | None:
    """Parse an effect (a block of statements); syntax errors go to `report` and give None."""
    node = _parse(str(text), origin, report, "block")
    return tuple(node) if isinstance(node, tuple) else None


class _Shifted:
    """An origin for a `{expr}` inside a template string: positions shift by the brace offset."""

    def __init__(self, origin: TextOrigin, line: int, col: int) -> None:
        self.file = origin.file
        self._origin = origin
        self._line = line
        self._col = col

    def locate(self, line: int, col: int) -> tuple[int, int]:
        return self._origin.locate(self._line + line - 1, (self._col + col - 1) if line == 1 else col)


def parse_template(
    text: str, origin: TextOrigin, report: Report, line: int = 1, col: int = 1
) -> tuple[str | ast.Expr, ...]:
    """Split `"text {expr} more"` into literal parts and parsed expressions."""
    parts: list[str | ast.Expr] = []
    i = 0
    while i < len(text):
        j = text.find("{", i)
        if j < 0:
            parts.append(text[i:])
            break
        k = text.find("}", j)
        if k < 0:
            parts.append(text[i:])
            break
        if j > i:
            parts.append(text[i:j])
        expr = parse_expr(text[j + 1 : k], _Shifted(origin, line, col + j + 1), report)
        if expr is not None:
            parts.append(expr)
        i = k + 1
    return tuple(parts)
