"""The template library service: validate, index, search, evaluate, list, read and save.

Plain functions over :class:`~oic_ai.stores.settings.Settings` that return typed results
(each with a ``to_json`` where a ``--json`` shape exists) and raise
:class:`~oic_ai.stores.errors.UserInputError` (or a subclass) for anything the caller can
fix. Chroma, the embedder and the schema load inside the functions that need them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings
    from oic_ai.stores.template_index import SyncReport
    from oic_ai.stores.template_library import SkippedFile
    from oic_ai.tools.retrieval.evaluation import LabelledQuery
    from oic_ai.tools.retrieval.hybrid_search import SearchResponse, TemplateSearch
    from oic_ai.tools.validate_template import FileReport

Progress = Callable[[int, int], None]
"""Called with (done, total) while templates are embedded."""


class TemplateExistsError(UserInputError):
    """A template with that name exists, and replacing it was not asked for."""


class InvalidTemplateError(UserInputError):
    """A template to save does not validate; ``report`` holds the findings."""

    def __init__(self, message: str, report: FileReport, *, fix: str | None = None) -> None:
        """Keep the validation report next to the one-line message."""
        super().__init__(message, fix=fix)
        self.report = report


# --- validation --------------------------------------------------------------------------


def template_files(
    raw_paths: Sequence[str | Path], *, empty_fix: str = "pass template files or a folder of them"
) -> list[Path]:
    """Expand files and folders into the template files to work on, in order.

    Args:
        raw_paths: Template files, or folders searched for ``*.yml``/``*.yaml``.
        empty_fix: The hint given when a folder holds no template files.

    Raises:
        UserInputError: a path does not exist, a folder holds no template files, or a
            folder below one cannot be listed.
    """
    files: list[Path] = []
    for entry in _expand(raw_paths, empty_fix):
        if not isinstance(entry, Path):
            raise UserInputError(f"{entry.path}: {entry.reason}", fix="check its permissions")
        files.append(entry)
    return files


def _expand(raw_paths: Sequence[str | Path], empty_fix: str) -> list[Path | SkippedFile]:
    """Files to work on, and in their place each folder that could not be listed.

    A path that exists (even as a dangling symlink or a special file) is kept, for the
    caller to report per file; only a path that is not there at all is a usage error.
    """
    from oic_ai.stores.template_library import SkippedFile, iter_template_files

    entries: list[Path | SkippedFile] = []
    for raw in raw_paths:
        path = Path(raw)
        if path.is_dir():
            unlisted: list[SkippedFile] = []
            found = list(iter_template_files(path, unlisted))
            if not found and not unlisted:
                raise UserInputError(f"{path} holds no .yml or .yaml files", fix=empty_fix)
            entries.extend(found)
            entries.extend(SkippedFile((path / p.path).as_posix(), p.reason) for p in unlisted)
        elif not path.exists() and not path.is_symlink():
            raise UserInputError(f"{path} does not exist", fix="check the path")
        else:
            entries.append(path)
    return entries


def validate_files(
    raw_paths: Sequence[str | Path], *, schema_file: str | Path | None = None
) -> list[FileReport]:
    """Validate template files (or folders of them), one report per file.

    A file that cannot be read (a dangling symlink, a named pipe or device, a file over
    1 MiB, binary or UTF-16 bytes) and a folder that cannot be listed each get a report
    with one error, and the run goes on with the rest.

    Args:
        raw_paths: Template files or folders.
        schema_file: A JSON Schema to check against instead of oic-ai's own.

    Raises:
        UserInputError: a path does not exist, or the schema file is unusable.
    """
    from oic_ai.tools.validate_template import TemplateSchema, unreadable_report, validate_file

    entries = _expand(raw_paths, "pass template files or a folder of them")
    schema = TemplateSchema.from_file(schema_file) if schema_file else TemplateSchema.ours()
    return [
        validate_file(entry, schema=schema)
        if isinstance(entry, Path)
        else unreadable_report(entry.path, entry.reason)
        for entry in entries
    ]


def validate_template_text(text: str, *, source: str = "<template>") -> FileReport:
    """Validate template text (the REST ``POST /api/v1/validate`` body).

    Args:
        text: The YAML text of one template.
        source: The name to report as the file's path.
    """
    from oic_ai.tools.validate_template import validate_text

    return validate_text(text, source=source)


# --- index, search, evaluation, cache ----------------------------------------------------


def open_search(settings: Settings) -> TemplateSearch:
    """Open the hybrid search over the settings' library and index (nothing is synced)."""
    from oic_ai.tools.retrieval.hybrid_search import TemplateSearch

    return TemplateSearch.open(settings)


@dataclass(frozen=True)
class IndexOutcome:
    """One indexing run and where it ran.

    Attributes:
        report: What was created, updated, unchanged and deleted.
        templates_dir: The library that was indexed.
        collection: The Chroma collection it was indexed into.
    """

    report: SyncReport
    templates_dir: Path
    collection: str

    def to_json(self) -> dict[str, Any]:
        """The ``index --json`` shape."""
        return self.report.to_json()


def index_library(settings: Settings, *, progress: Progress | None = None) -> IndexOutcome:
    """Embed new and changed templates, and drop deleted ones, from the index."""
    search = open_search(settings)
    report = search.index.sync(search.templates_dir, progress=progress)
    return IndexOutcome(report, search.templates_dir, search.index.name)


def _synced_search(settings: Settings, progress: Progress | None) -> TemplateSearch:
    search = open_search(settings)
    search.index.sync(search.templates_dir, progress=progress)
    return search


def search_library(
    settings: Settings,
    query: str,
    *,
    top_k: int = 5,
    filters: Mapping[str, str | None] | None = None,
    progress: Progress | None = None,
) -> SearchResponse:
    """Bring the index up to date, then rank the library's templates for ``query``.

    Args:
        settings: Where the library and the index are.
        query: The request, in words.
        top_k: How many results.
        filters: Optional ``os``, ``dist``, ``arch`` and ``image_type`` to keep.
        progress: Called while templates are embedded.
    """
    search = _synced_search(settings, progress)
    active = {key: value for key, value in (filters or {}).items() if value}
    return search.search(query, top_k=top_k, filters=active)


def evaluate_retrieval(
    settings: Settings,
    queries: Sequence[LabelledQuery],
    *,
    top_k: int = 5,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Measure hit@1, hit@3 and MRR over labelled queries (the ``eval retrieval`` shape)."""
    from oic_ai.tools.retrieval.evaluation import evaluate

    search = _synced_search(settings, progress)
    ranked = [(q, [r.template for r in search.search(q.q, top_k=top_k).results]) for q in queries]
    return evaluate(ranked)


def load_labelled_queries(path: Path) -> list[LabelledQuery]:
    """Read a labelled queries file (``queries: [{q, accept, type}]``)."""
    from oic_ai.tools.retrieval.evaluation import load_queries

    return load_queries(path)


def library_key(settings: Settings) -> str:
    """The library's part of its Chroma collection names (``ai.library.name`` or a folder id)."""
    from oic_ai.stores.template_index import library_key as key

    return key(library_dir(settings), settings.library_name)


def cache_stats(settings: Settings) -> dict[str, Any]:
    """The embedding cache: collections, entries, size and the last run's hits."""
    from oic_ai.stores.template_index import cache_stats as stats

    return stats(settings.data_dir, settings.chroma_url, library=library_key(settings))


def clear_cache(settings: Settings) -> int:
    """Delete this library's embedding cache; return how many entries went.

    On a Chroma server only this library's collections are deleted; in the embedded
    store (this data folder's alone) every oic-ai collection is.
    """
    from oic_ai.stores.template_index import clear_cache as clear

    return clear(settings.data_dir, settings.chroma_url, library=library_key(settings))


# --- templates: list, read, save ---------------------------------------------------------


def library_dir(settings: Settings) -> Path:
    """The template library that search indexes: ``templates_dir`` or the bundled one."""
    from oic_ai.stores.template_library import bundled_templates_dir

    return settings.templates_dir or bundled_templates_dir()


def output_path(name: str, settings: Settings) -> Path:
    """Where a template called ``name`` is written (the ``generate --output`` rule).

    A bare name goes into ``templates_dir`` (``./image-templates`` by default) with
    ``.yml`` added; a file name with a YAML suffix, or a value with a folder part, is a
    path used as given.

    Raises:
        UserInputError: a bare name is not a plain file name.
    """
    from oic_ai.stores.template_output import resolve_output

    folder = settings.templates_dir or Path("image-templates")
    return resolve_output(name, Path(folder))


@dataclass(frozen=True)
class TemplateEntry:
    """One template file of the library.

    Attributes:
        name: The file name without its suffix; what ``library_template`` takes.
        path: The path relative to the library folder.
    """

    name: str
    path: str

    def to_json(self) -> dict[str, str]:
        """The ``GET /api/v1/templates`` entry."""
        return {"name": self.name, "path": self.path}


def check_output(path: Path, *, force: bool = False) -> None:
    """Refuse an ``--output`` file that exists (without ``force``) before a turn runs.

    Raises:
        UserInputError: the file exists, or its folder cannot be written.
    """
    from oic_ai.stores.template_output import check_target

    check_target(path, force=force)


def write_output(path: Path, text: str, *, force: bool = False) -> None:
    """Write a turn's template to ``path`` atomically (``generate --output``, ``/save``).

    Raises:
        UserInputError: the file exists and ``force`` is False, or it cannot be written.
    """
    from oic_ai.stores.template_output import write_template

    write_template(path, text, force=force)


def list_templates(settings: Settings) -> list[TemplateEntry]:
    """Every template file of the library, in a stable order."""
    from oic_ai.stores.template_library import iter_template_files

    root = library_dir(settings)
    if not root.is_dir():
        return []
    return [
        TemplateEntry(path.stem, path.relative_to(root).as_posix())
        for path in iter_template_files(root)
    ]


def library_template(settings: Settings, name: str) -> str:
    """The text of the library template called ``name`` (its stem or relative path).

    Raises:
        TemplateNotFoundError: no template has that name.
        UserInputError: the file is not a regular UTF-8 text file of at most 1 MiB.
    """
    from oic_ai.stores.template_library import library_template_text

    return library_template_text(library_dir(settings), name)


def save_template(
    settings: Settings, name: str, text: str, *, overwrite: bool = False
) -> tuple[Path, FileReport]:
    """Validate ``text`` and write it as library template ``name`` (a plain name, no path).

    Returns:
        Where it was written, and its validation report (warnings may remain).

    Raises:
        InvalidTemplateError: the template has errors (``report`` holds them).
        TemplateExistsError: the file exists and ``overwrite`` is False.
        UserInputError: the name is not usable, or the file cannot be written.
    """
    from oic_ai.stores.template_output import library_file, write_template

    path = library_file(name, settings.templates_dir or Path("image-templates"))
    report = validate_template_text(text, source=path.name)
    if not report.valid:
        raise InvalidTemplateError(
            f"{path.name} is not a valid template ({len(report.errors)} error(s))",
            report,
            fix="fix the findings and save again",
        )
    if path.exists() and not overwrite:
        raise TemplateExistsError(f"{path} already exists", fix="pass overwrite to replace it")
    write_template(path, text, force=overwrite)
    return path, report
