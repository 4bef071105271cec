"""What an attribute of a solution's Terraform evaluates to, when it is written there.

Follows the data flow Terraform would, over the one parse (kit/deploy/hcl.py): `local.X`,
`var.X` (the value the kit passes, else a root module's tfvars or the variable's default;
a child module's input from the calling module block), `module.M.X` (a local module's
output), string templates, and a few pure
functions of literals (join, format, lower, upper, trimspace, sensitive, nonsensitive).
Anything else (a resource's or data source's attribute, other functions, conditionals) is
not known before the apply, and the value is Unknown. Used to tell a literal secret from a
generated or fetched one: `password = local.db_password` with `db_password = "..."` is as
written in the configuration as `password = "..."`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit.deploy.hcl import Configuration, items, loads
from kit.intake.files import read_regular

MAX_DEPTH = 32  # references followed before giving up (a cycle Terraform would refuse)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


class Unknown(Exception):
    """The value is not known from the configuration alone."""


@dataclass(frozen=True)
class Found:
    """A value known from the configuration, and the references it was found through."""

    value: Any
    through: tuple[str, ...] = ()


@dataclass
class _Scope:
    directory: Path  # the module's directory, relative to the solution
    depth: int = 0
    trail: list[str] = field(default_factory=list)


class Values:
    """Evaluates expressions of a parsed configuration (read only)."""

    def __init__(self, config: Configuration, passed: Collection[str] = ()) -> None:
        self.config = config
        self.passed = set(passed)  # root variables the kit sets with -var
        self._tfvars = _tfvars(config.root)

    def evaluate(self, raw: Any, directory: Path) -> Found:
        """The value of an attribute as parsed in module `directory`; Unknown if not known."""
        scope = _Scope(directory)
        value = self._value(raw, scope)
        return Found(value, tuple(scope.trail))

    # --- raw values, as python-hcl2 gives them -----------------------------------------

    def _value(self, raw: Any, scope: _Scope) -> Any:
        if isinstance(raw, str):
            return self._template(raw, scope)
        if isinstance(raw, bool | int | float) or raw is None:
            return raw
        if isinstance(raw, list):
            return [self._value(item, scope) for item in raw]
        if isinstance(raw, dict):
            return {key: self._value(item, scope) for key, item in raw.items()
                    if not str(key).startswith("__")}
        raise Unknown(f"a {type(raw).__name__}")

    def _template(self, text: str, scope: _Scope) -> Any:
        """A string: literal parts and `${...}` interpolations (one alone keeps its type)."""
        parts = _split_template(text)
        if len(parts) == 1 and isinstance(parts[0], _Expr):
            return self._expression(parts[0].text, scope)
        out = []
        for part in parts:
            value = self._expression(part.text, scope) if isinstance(part, _Expr) else part
            if isinstance(value, list | dict) or value is None:
                raise Unknown("a collection in a template")
            out.append(_text(value))
        return "".join(out)

    def _expression(self, text: str, scope: _Scope) -> Any:
        parser = _Parser(text, self, scope)
        value = parser.expression()
        parser.end()
        return value

    # --- references ----------------------------------------------------------------------

    def reference(self, kind: str, name: str, scope: _Scope) -> Any:
        """The value of `local.name` or `var.name` in the scope's module."""
        if scope.depth >= MAX_DEPTH:
            raise Unknown("references too deep")
        scope.trail.append(f"{kind}.{name}" if scope.directory == Path(".")
                           else f"{scope.directory}: {kind}.{name}")
        if kind == "local":
            raw = self._local(name, scope.directory)
            return self._value(raw, _Scope(scope.directory, scope.depth + 1, scope.trail))
        return self._variable(name, scope)

    def output(self, module: str, name: str, scope: _Scope) -> Any:
        """The value of output `name` of the local module block `module` in the scope."""
        if scope.depth >= MAX_DEPTH:
            raise Unknown("references too deep")
        child = self._callee(module, scope.directory)
        scope.trail.append(f"module.{module}.{name}")
        for doc in self.config.documents:
            if doc.path.parent == child:
                for found, body in items(doc.content.get("output")):
                    if found == name and isinstance(body, dict) and "value" in body:
                        return self._value(body["value"],
                                           _Scope(child, scope.depth + 1, scope.trail))
        raise Unknown(f"module {module} has no output {name}")

    def _callee(self, module: str, directory: Path) -> Path:
        """The directory of local module block `module` called from `directory`."""
        for doc in self.config.documents:
            if doc.path.parent != directory:
                continue
            for found, body in items(doc.content.get("module")):
                source = body.get("source") if isinstance(body, dict) else None
                if found == module and isinstance(source, str) and \
                        source.startswith(("./", "../")):
                    return _normal(directory / source)
        raise Unknown(f"module {module} is not a local module")

    def _local(self, name: str, directory: Path) -> Any:
        for doc in self.config.documents:
            if doc.path.parent != directory:
                continue
            for block in _blocks(doc.content.get("locals")):
                if name in block:
                    return block[name]
        raise Unknown(f"no local {name}")

    def _variable(self, name: str, scope: _Scope) -> Any:
        inner = _Scope(scope.directory, scope.depth + 1, scope.trail)
        if scope.directory == Path("."):
            if name in self.passed:
                raise Unknown(f"var.{name} is passed by the kit")
            if name in self._tfvars:
                return self._value(self._tfvars[name], inner)
            return self._default(name, inner)
        # A module called from several blocks: the first call that gives a known value.
        for directory, block in self._callers(scope.directory):
            try:
                if name in block:
                    return self._value(block[name], _Scope(directory, scope.depth + 1,
                                                           scope.trail))
                return self._default(name, inner)
            except Unknown:
                continue
        raise Unknown(f"var.{name} has no known value in any call")

    def _default(self, name: str, scope: _Scope) -> Any:
        variable = self.config.variables(scope.directory).get(name, {})
        if "default" not in variable:
            raise Unknown(f"var.{name} has no default")
        return self._value(variable["default"], scope)

    def _callers(self, directory: Path) -> list[tuple[Path, dict[str, Any]]]:
        """(calling module's directory, module block) of each call of a local module."""
        found = []
        for doc in self.config.documents:
            for _, body in items(doc.content.get("module")):
                source = body.get("source") if isinstance(body, dict) else None
                if isinstance(source, str) and source.startswith(("./", "../")) and \
                        _normal(doc.path.parent / source) == directory:
                    found.append((doc.path.parent, body))
        return found


# --- templates and expressions -------------------------------------------------------------


@dataclass(frozen=True)
class _Expr:
    text: str


def _split_template(text: str) -> list[str | _Expr]:
    """Literal text and `${...}` parts of a template (`$${` is a literal `${`)."""
    parts: list[str | _Expr] = []
    literal, i = [], 0
    while i < len(text):
        if text.startswith("$${", i):
            literal.append("${")
            i += 3
        elif text.startswith("%{", i):
            raise Unknown("a template directive")
        elif text.startswith("${", i):
            end = _closing(text, i + 2)
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_Expr(text[i + 2:end].strip().removeprefix("~").removesuffix("~")))
            i = end + 1
        else:
            literal.append(text[i])
            i += 1
    if literal or not parts:
        parts.append("".join(literal))
    return parts


def _closing(text: str, start: int) -> int:
    """The index of the `}` closing an interpolation opened before `start`."""
    depth, i, quoted = 0, start, False
    while i < len(text):
        char = text[i]
        if quoted:
            if char == "\\":
                i += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "{":
            depth += 1
        elif char == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    raise Unknown("an unclosed interpolation")


class _Parser:
    """Recursive descent over the expressions a literal can be made of."""

    def __init__(self, text: str, values: Values, scope: _Scope) -> None:
        self.text, self.pos, self.values, self.scope = text, 0, values, scope

    def _skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _peek(self) -> str:
        self._skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _take(self, char: str) -> None:
        if self._peek() != char:
            raise Unknown(f"expected {char!r} in {self.text!r}")
        self.pos += 1

    def end(self) -> None:
        """Fail unless the whole text was read (an operator, a conditional: unknown)."""
        if self._peek():
            raise Unknown(f"not a literal expression: {self.text!r}")

    def expression(self) -> Any:
        """One operand: a string, number, list, function call or reference."""
        char = self._peek()
        if char == '"':
            return self._string()
        if char == "[":
            return self._list()
        number = _NUMBER.match(self.text, self.pos)
        if number:
            self.pos = number.end()
            return float(number[0]) if "." in number[0] else int(number[0])
        ident = _IDENT.match(self.text, self.pos)
        if not ident:
            raise Unknown(f"not a literal expression: {self.text!r}")
        self.pos = ident.end()
        if self._peek() == "(":
            return self._call(ident[0])
        return self._traverse(self._root(ident[0]))

    def _string(self) -> Any:
        self._take('"')
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] != '"':
            if self.text[self.pos] == "\\":
                self.pos += 1
            elif self.text.startswith("${", self.pos):
                self.pos = _closing(self.text, self.pos + 2)
            self.pos += 1
        raw = self.text[start:self.pos]
        self._take('"')
        unescaped = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[1]), raw)
        return self.values._template(unescaped, self.scope)

    def _list(self) -> list[Any]:
        self._take("[")
        out = []
        while self._peek() != "]":
            out.append(self.expression())
            if self._peek() != ",":
                break
            self._take(",")
        self._take("]")
        return out

    def _root(self, name: str) -> Any:
        if name in ("true", "false"):
            return name == "true"
        if name == "module":
            return self._module_output()
        if name not in ("local", "var"):
            raise Unknown(f"{name}.* is known only after the apply")
        self._take(".")
        attr = _IDENT.match(self.text, self.pos)
        if not attr:
            raise Unknown(f"a malformed reference in {self.text!r}")
        self.pos = attr.end()
        return self.values.reference(name, attr[0], self.scope)

    def _module_output(self) -> Any:
        """`module.M.X`: output X of the local module block M in this module."""
        names = []
        for _ in range(2):
            self._take(".")
            found = _IDENT.match(self.text, self.pos)
            if not found:
                raise Unknown(f"a malformed reference in {self.text!r}")
            self.pos = found.end()
            names.append(found[0])
        return self.values.output(names[0], names[1], self.scope)

    def _traverse(self, value: Any) -> Any:
        """`.attr` and `[index]` steps into a known object or list."""
        while self._peek() in (".", "["):
            if self._peek() == ".":
                self._take(".")
                attr = _IDENT.match(self.text, self.pos)
                if not attr:
                    raise Unknown(f"a malformed reference in {self.text!r}")
                self.pos, key = attr.end(), attr[0]
            else:
                self._take("[")
                key = self.expression()
                self._take("]")
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                raise Unknown(f"no element {key!r}") from None
        return value

    def _call(self, name: str) -> Any:
        self._take("(")
        args = []
        while self._peek() != ")":
            args.append(self.expression())
            if self._peek() != ",":
                break
            self._take(",")
        self._take(")")
        return _function(name, args)


def _function(name: str, args: list[Any]) -> Any:
    """The pure functions of literals a secret is plausibly spelled with."""
    if name in ("sensitive", "nonsensitive", "tostring") and len(args) == 1:
        return _text(args[0]) if name == "tostring" else args[0]
    if name in ("lower", "upper", "trimspace") and len(args) == 1:
        text = _text(args[0])
        return {"lower": text.lower, "upper": text.upper, "trimspace": text.strip}[name]()
    if name == "join" and len(args) == 2 and isinstance(args[1], list):
        return _text(args[0]).join(_text(item) for item in args[1])
    if name == "format" and args:
        return _format(_text(args[0]), args[1:])
    raise Unknown(f"{name}(...) is not evaluated")


def _format(spec: str, args: list[Any]) -> str:
    out, rest = [], list(args)
    for literal, verb in re.findall(r"([^%]*)(%[-+ #0-9.]*[a-zA-Z%]|$)", spec):
        out.append(literal)
        if verb == "%%":
            out.append("%")
        elif verb:
            if not rest:
                raise Unknown("format has too few arguments")
            out.append(_text(rest.pop(0)))
    return "".join(out)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict) or value is None:
        raise Unknown("not a string")
    return str(value)


def _blocks(value: Any) -> list[dict[str, Any]]:
    """The `locals` blocks of a file (HCL: a list of maps; JSON: a map or a list)."""
    found = value if isinstance(value, list) else [value]
    return [block for block in found if isinstance(block, dict)]


def _normal(path: Path) -> Path:
    """A relative path without `.` and `..` steps (a module source against its caller)."""
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return Path(*parts) if parts else Path(".")


MAX_TFVARS = 1_000_000  # bytes of one variable file


def _tfvars(root: Path) -> dict[str, Any]:
    """Variable values Terraform loads by itself: terraform.tfvars(.json), *.auto.tfvars."""
    found: dict[str, Any] = {}
    names = ["terraform.tfvars", "terraform.tfvars.json",
             *sorted(p.name for p in root.glob("*.auto.tfvars*"))] if root.is_dir() else []
    for name in names:
        data = read_regular(root, name, MAX_TFVARS)  # no link followed
        if data is None or not name.endswith((".tfvars", ".tfvars.json")):
            continue
        text = data.decode(errors="replace")
        try:
            content = json.loads(text) if name.endswith(".json") else \
                loads(text)
        except Exception:  # noqa: BLE001,S112 - Terraform reports an unreadable tfvars
            continue
        if isinstance(content, dict):
            found |= content
    return found
