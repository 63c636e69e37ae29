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

import jsonschema
from jsonschema.exceptions import ValidationError

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_library import MAX_TEMPLATE_BYTES
from oic_ai.stores.yaml_document import YamlDocument, YamlSyntaxError, load_document
from oic_ai.tools.findings import Finding, json_path
from oic_ai.tools.template_checks import security_findings, semantic_findings

_REQUIRED = re.compile(r"^(.*) is a required property$")


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

    def __init__(self, schema: Mapping[str, Any], name: str) -> None:
        """Compile ``schema`` (Draft 2020-12).

        A schema file that only holds ``$defs`` (like the composer's own) is checked
        through its ``UserTemplate`` definition.
        """
        root = dict(schema)
        if "type" not in root and "$ref" not in root and "UserTemplate" in root.get("$defs", {}):
            root["$ref"] = "#/$defs/UserTemplate"
        jsonschema.Draft202012Validator.check_schema(root)
        self.name = name
        self._validator = jsonschema.Draft202012Validator(root)

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
        try:
            loaded = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserInputError(
                f"schema file {file} does not exist", fix="check the --schema path"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UserInputError(
                f"cannot read schema file {file} ({exc})", fix="check the --schema path"
            ) from None
        except json.JSONDecodeError as exc:
            raise UserInputError(
                f"schema file {file} is not JSON (line {exc.lineno}: {exc.msg})",
                fix="pass a JSON Schema file",
            ) from None
        if not isinstance(loaded, dict):
            raise UserInputError(
                f"schema file {file} does not hold a JSON object", fix="pass a JSON Schema file"
            )
        try:
            return cls(loaded, str(file))
        except jsonschema.SchemaError as exc:
            raise UserInputError(
                f"schema file {file} is not a valid JSON Schema ({exc.message})",
                fix="pass a Draft 2020-12 schema",
            ) from None

    def findings(self, data: Any, doc: YamlDocument) -> list[Finding]:
        """Check ``data`` and translate each schema error into findings."""
        out: list[Finding] = []
        for error in self._validator.iter_errors(data):
            out.extend(_translate(error, doc))
        return out


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
        doc = load_document(text)
    except YamlSyntaxError as exc:
        report.errors.append(
            Finding("$", exc.line, f"YAML syntax error: {exc}", "yaml-syntax", column=exc.column)
        )
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
    ]
    report.errors.extend(f for f in findings if f.severity == "error")
    report.warnings.extend(f for f in findings if f.severity == "warning")
    report.errors.sort(key=lambda f: (f.line or 0, f.path))
    report.warnings.sort(key=lambda f: (f.line or 0, f.path))
    return report


def validate_file(path: str | Path, *, schema: TemplateSchema | None = None) -> FileReport:
    """Validate a template file.

    Raises:
        UserInputError: the file is missing, a folder, unreadable or over 1 MiB.
    """
    file = Path(path)
    try:
        size = file.stat().st_size
        if file.is_dir():
            raise UserInputError(
                f"{file} is a folder, not a template file", fix="pass the .yml files inside it"
            )
        if size > MAX_TEMPLATE_BYTES:
            raise UserInputError(
                f"{file} is {size} bytes; templates over 1 MiB are refused",
                fix="check that this is really a template",
            )
        raw = file.read_bytes()
    except FileNotFoundError:
        raise UserInputError(f"{file} does not exist", fix="check the path") from None
    except PermissionError:
        raise UserInputError(
            f"{file} cannot be read (permission denied)", fix="check its permissions"
        ) from None
    except OSError as exc:
        raise UserInputError(
            f"{file} cannot be read ({exc.strerror or exc})", fix="check the path"
        ) from None
    report_path = str(path)
    if b"\x00" in raw:
        report = FileReport(path=report_path)
        report.errors.append(
            Finding("$", None, "binary file (contains NUL bytes), not YAML", "not-text")
        )
        return report
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        report = FileReport(path=report_path)
        report.errors.append(
            Finding(
                "$",
                raw[: exc.start].count(b"\n") + 1,
                f"not UTF-8 text (bad byte at offset {exc.start})",
                "not-text",
            )
        )
        return report
    return validate_text(text, source=report_path, schema=schema)
