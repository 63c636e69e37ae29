"""Validate templates: YAML syntax, our JSON Schema, semantic checks, security lint.

``validate_text`` is the tool the graph calls; ``validate_file`` adds file handling for
the command line. Both return a :class:`FileReport` whose findings each carry a JSON
path, a 1-based line, a message and a stable code.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import jsonschema
import referencing
import referencing.exceptions
from jsonschema.exceptions import ValidationError
from referencing.jsonschema import DRAFT202012

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_library import (
    UnreadableFileError,
    read_file_bytes,
    read_user_text,
    text_problem,
)
from oic_ai.stores.yaml_document import YamlDocument, YamlSyntaxError, load_document
from oic_ai.tools.findings import Finding, json_path
from oic_ai.tools.template_checks import (
    composer_findings,
    security_findings,
    semantic_findings,
)

_REQUIRED = re.compile(r"^(.*) is a required property$")

# Where ``validate`` refuses what the composer's own loader (``image-composer-tool validate``
# and ``--merged``) accepts, and why: the loader takes these, but the image cannot be
# built as meant. Everywhere else ``validate`` is never more lenient than the loader
# (tests/reliability/test_composer_judge.py mutates real templates and checks both).
STRICTER_THAN_THE_COMPOSER: dict[str, str] = {
    "yaml-multiple-documents": "the loader reads only the first document and drops the rest",
    "yaml-unknown-tag": "the loader reads a value under an unknown tag as plain text",
    "size-invalid": "the loader takes any text as a size; the disk build cannot read it",
    "partition-overlap": "the loader does not check the layout; the disk build fails on it",
    "partition-exceeds-disk": "the loader does not check the layout; the disk build fails on it",
    "partition-empty": "the loader does not check the layout; the disk build fails on it",
    "partition-type-mbr": "the loader takes any type; the mbr disk build accepts only three",
    "partition-guid-invalid": "the loader takes any text as a type GUID; sgdisk refuses it",
    "root-type-arch-mismatch": "partition discovery does not find a root of another arch",
    "mountpoint-duplicate": "the second partition mounted at one place hides the first",
    "user-duplicate": "creating the second account of the same name fails",
    "package-duplicate": "a package listed twice is an editing slip that hides what was meant",
    "package-name-invalid": "apt and dnf refuse a name that is not a package name",
    "package-versioned": "the composer passes names as they are: a version pin fails to install",
    "configuration-incomplete": "a configuration without a shell command runs nothing",
    "additional-file-incomplete": "a file without a source on the build host cannot be copied",
    "additional-file-target": "a file must land at an absolute path inside the image",
    "hostname-invalid": "the loader takes any text; systemd refuses an invalid host name",
    "user-name-invalid": "the loader takes any text; useradd refuses an invalid login name",
    "disk-name-empty": "the disk image file is named after it",
    "repository-field-empty": "apt and dnf cannot use a repository entry with an empty field",
}


@dataclass
class FileReport:
    """The outcome of validating one file."""

    path: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """A template is valid when it has no errors; warnings do not count."""
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        """Return the ``validate --json`` entry for this file."""
        return {
            "path": self.path,
            "valid": self.valid,
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
        }


class TemplateSchema:
    """A JSON Schema to check templates against, with finding codes per rule."""

    def __init__(self, schema: Mapping[str, Any], name: str, *, folder: Path | None = None) -> None:
        """Compile ``schema`` (Draft 2020-12), resolving ``$ref`` only locally.

        A schema file that only holds ``$defs`` (like the composer's own) is checked
        through its ``UserTemplate`` definition. A ``$ref`` may point inside the schema,
        or at a JSON file in ``folder`` (the schema file's own folder); nothing is ever
        fetched over the network.

        Raises:
            jsonschema.SchemaError: the schema is not a valid Draft 2020-12 schema.
            SchemaReferenceError: a ``$ref`` points elsewhere, at nothing, or round in
                a circle.
        """
        root = dict(schema)
        if "type" not in root and "$ref" not in root and "UserTemplate" in root.get("$defs", {}):
            root["$ref"] = "#/$defs/UserTemplate"
        jsonschema.Draft202012Validator.check_schema(root)
        self.name = name
        registry, root = _local_registry(root, folder)
        _check_references(root, registry)
        self._validator = jsonschema.Draft202012Validator(root, registry=registry)

    @classmethod
    def ours(cls) -> TemplateSchema:
        """The schema oic-ai ships, faithful to the composer's format."""
        return _our_schema()

    @classmethod
    def from_file(cls, path: str | Path) -> TemplateSchema:
        """Load a schema file given with ``--schema``.

        Raises:
            UserInputError: the file is missing, not JSON, or not a valid schema.
        """
        file = Path(path)
        text = read_user_text(
            file,
            "schema file",
            fix="check the --schema path",
            utf8_fix="pass a JSON Schema file",
            limit=MAX_SCHEMA_BYTES,
        )
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserInputError(
                f"schema file {file} is not JSON (line {exc.lineno}: {exc.msg})",
                fix="pass a JSON Schema file",
            ) from None
        except RecursionError:
            raise UserInputError(
                f"schema file {file} nests too deep", fix="pass a JSON Schema file"
            ) from None
        if not isinstance(loaded, dict):
            raise UserInputError(
                f"schema file {file} does not hold a JSON object", fix="pass a JSON Schema file"
            )
        try:
            return cls(loaded, str(file), folder=file.resolve().parent)
        except jsonschema.SchemaError as exc:
            raise UserInputError(
                f"schema file {file} is not a valid JSON Schema ({exc.message})",
                fix="pass a Draft 2020-12 schema",
            ) from None
        except SchemaReferenceError as exc:
            raise UserInputError(f"schema file {file}: {exc}", fix=exc.fix) from None

    def findings(self, data: Any, doc: YamlDocument) -> list[Finding]:
        """Check ``data`` and translate each schema error into findings."""
        out: list[Finding] = []
        try:
            for error in self._validator.iter_errors(data):
                out.extend(_translate(error, doc))
        except referencing.exceptions.Unresolvable as exc:  # a $ref inside a file beside
            raise UserInputError(
                f"schema {self.name}: $ref {_ref_of(exc)} cannot be resolved ({_why(exc)})",
                fix=_LOCAL_ONLY,
            ) from None
        except RecursionError:
            raise UserInputError(
                f"schema {self.name}: its $refs go round in a circle", fix="break the cycle"
            ) from None
        return out


MAX_SCHEMA_BYTES = 16 * 1024 * 1024
_LOCAL_ONLY = "a $ref may point inside the schema or at a JSON file beside it, nothing else"


class SchemaReferenceError(ValueError):
    """A ``$ref`` in a ``--schema`` file that cannot be followed; carries the fix."""

    def __init__(self, message: str, fix: str = _LOCAL_ONLY) -> None:
        """Keep the one-line problem and how to fix it."""
        super().__init__(message)
        self.fix = fix


class _RefusedError(LookupError):
    """A reference the local-only registry will not retrieve."""


def _local_registry(
    root: dict[str, Any], folder: Path | None
) -> tuple[referencing.Registry[Any], dict[str, Any]]:
    """A registry that retrieves only JSON files in ``folder``; the root to validate with.

    The root gets the schema file's ``file:`` URI as its base (a relative ``$id`` is
    taken relative to it), so a relative ``$ref`` names a file beside the schema. An
    absolute ``$id`` such as ``https://example.com/schemas/t.json`` stays; a ``$ref``
    to another file under the same ``https://example.com/schemas/`` is read from
    ``folder`` too, never fetched.
    """
    bases: list[str] = []
    if folder is not None:
        folder_uri = folder.as_uri() + "/"
        bases.append(folder_uri)
        own = root.get("$id")
        if isinstance(own, str) and urlsplit(own).scheme:
            bases.append(urljoin(own, "."))
        else:
            root = {**root, "$id": urljoin(folder_uri, own if isinstance(own, str) else "")}

    def retrieve(uri: str) -> referencing.Resource[Any]:
        for base in bases:
            if folder is not None and uri.startswith(base):
                candidate = (folder / unquote(urlsplit(uri[len(base) :]).path)).resolve()
                if candidate.is_relative_to(folder) and candidate != folder:
                    try:
                        contents = json.loads(read_file_bytes(candidate).decode("utf-8"))
                    except (UnreadableFileError, ValueError, RecursionError) as exc:
                        raise _RefusedError(f"{candidate.name} cannot be read ({exc})") from None
                    return referencing.Resource.from_contents(
                        contents, default_specification=DRAFT202012
                    )
        raise _RefusedError("it is not in the schema file or a file beside it")

    registry: referencing.Registry[Any] = referencing.Registry(retrieve=retrieve)  # type: ignore[call-arg]
    return registry, root


def _check_references(root: dict[str, Any], registry: referencing.Registry[Any]) -> None:
    """Follow every ``$ref`` of ``root`` once, so a bad one is found before validating.

    Raises:
        SchemaReferenceError: a ``$ref`` is remote, dangling, or part of a chain of
            references that comes back to where it started.
    """
    resource = DRAFT202012.create_resource(root)
    resolver = registry.resolver_with_root(resource)
    stack: list[tuple[Any, Any]] = [(root, resolver)]
    while stack:
        node, here = stack.pop()
        if isinstance(node, list):
            stack.extend((item, here) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("$id"), str) and node is not root:
            here = here.in_subresource(DRAFT202012.create_resource(node))
        if isinstance(node.get("$ref"), str):
            _follow(node, here)
        for key, value in node.items():
            if key not in ("enum", "const", "examples", "default"):
                stack.append((value, here))


def _follow(node: dict[str, Any], resolver: Any) -> None:
    """Follow a chain of ``$ref`` from ``node`` until it reaches a schema of its own."""
    seen = {id(node)}
    ref = str(node["$ref"])
    while True:
        try:
            resolved = resolver.lookup(ref)
        except referencing.exceptions.Unresolvable as exc:
            raise SchemaReferenceError(f"$ref {ref!r} cannot be resolved ({_why(exc)})") from None
        target = resolved.contents
        if id(target) in seen:
            raise SchemaReferenceError(
                f"$ref {ref!r} leads back to itself (a cycle)",
                "point the $ref at a schema that is not only a $ref back",
            )
        if not isinstance(target, dict) or not isinstance(target.get("$ref"), str):
            return
        seen.add(id(target))
        resolver, ref = resolved.resolver, str(target["$ref"])


def _why(exc: BaseException) -> str:
    """Say why a lookup failed: the innermost refusal, or what kind of failure it was."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, _RefusedError):
            return str(current)
        if isinstance(current, referencing.exceptions.PointerToNowhere):
            return "the pointer leads nowhere"
        current = current.__cause__ or current.__context__
    return "it is not in the schema file or a file beside it"


def _ref_of(exc: referencing.exceptions.Unresolvable) -> str:
    return repr(getattr(exc, "ref", "?"))


@lru_cache(maxsize=1)
def _our_schema() -> TemplateSchema:
    text = resources.files("tools").joinpath("schemas/oic-template.schema.json").read_text("utf-8")
    return TemplateSchema(json.loads(text), "oic-ai")


def _rule(error: ValidationError, table: str) -> str | None:
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    entries = schema.get(table)
    if isinstance(entries, Mapping):
        value = entries.get(str(error.validator))
        return str(value) if value is not None else None
    return None


def _message(error: ValidationError) -> str:
    template = _rule(error, "x-messages")
    if template is None:
        return str(error.message)
    try:
        return template.format(value=error.instance)
    except (IndexError, KeyError, ValueError):
        return template


def _code(error: ValidationError) -> str:
    return (
        _rule(error, "x-codes")
        or "schema-" + re.sub(r"(?<!^)(?=[A-Z])", "-", str(error.validator)).lower()
    )


def _translate(error: ValidationError, doc: YamlDocument) -> Iterable[Finding]:
    path = tuple(error.absolute_path)
    code = _code(error)
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = set(schema.get("properties", {}))
        extra_note = _rule(error, "x-messages")
        for key in error.instance:
            if key in allowed:
                continue
            key_path = (*path, str(key))
            message = f"unknown key {key!r}" + (f": {extra_note}" if extra_note else "")
            yield Finding(json_path(key_path), doc.key_line(path, str(key)), message, code)
        return
    if error.validator == "required":
        match = _REQUIRED.match(str(error.message))
        missing = ast.literal_eval(match.group(1)) if match else "?"
        where = json_path(path)
        message = _rule(error, "x-messages") or (
            f"missing required key {missing!r}" + ("" if not path else f" in {where}")
        )
        yield Finding(json_path((*path, str(missing))), doc.line_of(path), message, code)
        return
    yield Finding(json_path(path), doc.line_of(path), _message(error), code)


def validate_text(
    text: str, *, source: str = "<template>", schema: TemplateSchema | None = None
) -> FileReport:
    """Validate template text and return every error and warning found.

    Args:
        text: the YAML text of one template.
        source: the name to report (a path, or ``<template>`` for generated text).
        schema: the schema to check against; oic-ai's own by default.
    """
    report = FileReport(path=source)
    if not text.strip():
        report.errors.append(
            Finding(
                "$",
                1,
                "the file is empty; a template needs at least image and target",
                "empty-file",
            )
        )
        return report
    try:
        doc = load_document(text, as_composer=True)
    except YamlSyntaxError as exc:
        message = f"YAML syntax error: {exc}" if exc.code == "yaml-syntax" else str(exc)
        report.errors.append(Finding("$", exc.line, message, exc.code, column=exc.column))
        return report
    if doc.data is None:
        report.errors.append(
            Finding("$", 1, "the file holds no YAML document (only comments?)", "empty-file")
        )
        return report
    if not isinstance(doc.data, Mapping):
        kind = "a list" if isinstance(doc.data, list) else f"a {type(doc.data).__name__}"
        report.errors.append(
            Finding(
                "$",
                doc.line_of(()),
                f"the document is {kind}; a template "
                "is a mapping with image, target and systemConfig",
                "not-a-mapping",
            )
        )
        return report
    for duplicate in doc.duplicate_keys():
        report.errors.append(
            Finding(
                json_path((*duplicate.path, duplicate.key)),
                duplicate.line,
                f"key {duplicate.key!r} appears twice in the same mapping; "
                "only the last one would count",
                "duplicate-key",
            )
        )
    findings = [
        *(schema or TemplateSchema.ours()).findings(doc.data, doc),
        *semantic_findings(doc.data, doc),
        *security_findings(doc.data, doc),
        *composer_findings(doc.data, doc),
    ]
    report.errors.extend(f for f in findings if f.severity == "error")
    report.warnings.extend(f for f in findings if f.severity == "warning")
    report.errors.sort(key=lambda f: (f.line or 0, f.path))
    report.warnings.sort(key=lambda f: (f.line or 0, f.path))
    return report


def validate_file(path: str | Path, *, schema: TemplateSchema | None = None) -> FileReport:
    """Validate a template file.

    Only a regular file of at most 1 MiB is read. Anything else (a folder, a named pipe,
    a device, a dangling symlink, a file that cannot be read or is too large, binary or
    UTF-16 bytes) is a report with one error, so a run over many files goes on with the
    rest; the codes are ``unreadable``, ``not-a-file``, ``too-large`` and ``not-text``.
    """
    report_path = str(path)
    try:
        raw = read_file_bytes(path)
    except UnreadableFileError as exc:
        return unreadable_report(report_path, exc.reason, exc.code)
    problem = text_problem(raw)
    if problem is not None:
        reason, line = problem
        return unreadable_report(report_path, reason, "not-text", line=line)
    return validate_text(raw.decode("utf-8"), source=report_path, schema=schema)


def unreadable_report(
    path: str, reason: str, code: str = "unreadable", *, line: int | None = None
) -> FileReport:
    """The report of a file (or folder) that could not be read: one error.

    Args:
        path: The path to report.
        reason: Why, e.g. ``not a regular file (a named pipe (FIFO))``.
        code: The finding's stable code.
        line: The 1-based line of the problem, where there is one.
    """
    report = FileReport(path=path)
    fixes = {
        "unreadable": "check the path and its permissions",
        "not-a-file": "pass template files or folders of them",
        "too-large": "check that this is really a template",
    }
    fix = fixes.get(code)
    report.errors.append(Finding("$", line, f"{reason}; {fix}" if fix else reason, code))
    return report
