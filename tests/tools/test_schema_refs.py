"""``--schema``: a ``$ref`` is followed only inside the schema file and the files beside it.

A remote ``$ref`` was fetched over the network, and ``{"$ref": "#"}`` or a dangling
``$ref`` ended in a traceback. Now each is one line (a ``UserInputError``, exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.tools.validate_template import TemplateSchema, validate_file
from tests.conftest import OUR_TEMPLATES
from tests.support.loopback import LoopbackHandler, LoopbackServer

TEMPLATE = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
SCHEMA_BODY = json.dumps({"type": "object"}).encode()


class _SchemaHandler(LoopbackHandler):
    def do_GET(self) -> None:
        self.owner.requests.append(self.path)
        self.send_bytes(200, SCHEMA_BODY, "application/schema+json")


class _SchemaServer(LoopbackServer):
    handler: ClassVar[type[LoopbackHandler]] = _SchemaHandler

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[str] = []


def _write(folder: Path, name: str, schema: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(schema))
    return path


def _refused(path: Path) -> str:
    with pytest.raises(UserInputError) as caught:
        validate_file(TEMPLATE, schema=TemplateSchema.from_file(path))
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_remote_ref_is_refused_and_never_fetched(tmp_path: Path) -> None:
    with _SchemaServer() as server:
        remote = f"{server.url}/image.schema.json"
        path = _write(tmp_path, "s.json", {"properties": {"image": {"$ref": remote}}})
        message = _refused(path)
        assert server.requests == []
    assert remote in message and "beside it" in message


def test_a_remote_ref_inside_a_file_beside_it_is_refused_too(tmp_path: Path) -> None:
    with _SchemaServer() as server:
        _write(tmp_path, "image.json", {"properties": {"name": {"$ref": f"{server.url}/x"}}})
        path = _write(tmp_path, "s.json", {"properties": {"image": {"$ref": "image.json"}}})
        message = _refused(path)
        assert server.requests == []
    assert "cannot be resolved" in message


def test_a_ref_to_itself_is_a_cycle(tmp_path: Path) -> None:
    assert "cycle" in _refused(_write(tmp_path, "s.json", {"$ref": "#"}))
    chain = {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}
    assert "cycle" in _refused(_write(tmp_path, "chain.json", chain))


def test_a_cycle_through_allof_is_one_line(tmp_path: Path) -> None:
    schema = {"$ref": "#/$defs/a", "$defs": {"a": {"allOf": [{"$ref": "#"}]}}}
    assert "circle" in _refused(_write(tmp_path, "s.json", schema))


def test_a_dangling_ref_is_one_line(tmp_path: Path) -> None:
    schema = {"properties": {"image": {"$ref": "#/$defs/missing"}}}
    assert "leads nowhere" in _refused(_write(tmp_path, "s.json", schema))
    beside = {"properties": {"image": {"$ref": "missing.json"}}}
    assert "missing.json" in _refused(_write(tmp_path, "beside.json", beside))


def test_a_ref_outside_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.json").write_text(json.dumps({"type": "object"}))
    inner = tmp_path / "schemas"
    inner.mkdir()
    path = _write(inner, "s.json", {"properties": {"image": {"$ref": "../outside.json"}}})
    assert "../outside.json" in _refused(path)


def test_refs_to_files_beside_the_schema_are_followed(tmp_path: Path) -> None:
    _write(tmp_path, "image.json", {"type": "object", "required": ["name", "nickname"]})
    path = _write(tmp_path, "s.json", {"properties": {"image": {"$ref": "image.json"}}})
    report = validate_file(TEMPLATE, schema=TemplateSchema.from_file(path))
    assert [e.path for e in report.errors if e.code.startswith("schema-")] == ["$.image.nickname"]


def test_an_absolute_id_maps_its_siblings_to_the_folder(tmp_path: Path) -> None:
    _write(tmp_path, "image.json", {"type": "object", "required": ["nickname"]})
    schema = {
        "$id": "https://schemas.example.invalid/t/template.json",
        "properties": {"image": {"$ref": "image.json"}},
    }
    report = validate_file(
        TEMPLATE, schema=TemplateSchema.from_file(_write(tmp_path, "t.json", schema))
    )
    assert any(e.path == "$.image.nickname" for e in report.errors)
