"""``oic-ai packages sync|check|status``: argument parsing only; handlers import lazily.

Nothing here imports SQLite, network or index code at module level, so the start-up
of other commands (``oic-ai validate``) does not pay for it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def add_packages_commands(commands: Any, common: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``packages`` and its subcommands on the ``oic-ai`` parser.

    Args:
        commands: The subparsers action of the top-level parser.
        common: Factory for the shared ``--config/--data-dir/...`` parent parser.
    """
    parser_class = type(common())
    packages = commands.add_parser(
        "packages", help="package indexes: sync them, check templates against them"
    )
    actions = packages.add_subparsers(
        dest="packages_command", metavar="ACTION", parser_class=parser_class
    )
    packages.set_defaults(handler=_usage(packages))

    target = argparse.ArgumentParser(add_help=False)
    target.add_argument("--os", help="target os (follows from --dist when left out)")
    target.add_argument("--dist", help="target dist, e.g. elxr12, ubuntu24, azl3")
    target.add_argument("--arch", help="target arch: x86_64 (default) or aarch64")

    sync = actions.add_parser(
        "sync",
        parents=[common(), target],
        help="fetch repository indexes into the local cache, or import a local index",
        description=(
            "Fetch package indexes (conditional requests, retries) into the cache under "
            "the data folder. With no source option, every remote repository synced "
            "before is checked again."
        ),
    )
    source = sync.add_mutually_exclusive_group()
    source.add_argument(
        "--repo-config",
        metavar="PATH",
        help="a composer providerconfig file, or a folder above them (config/osv)",
    )
    source.add_argument(
        "--index",
        metavar="FILE",
        help="import a local Packages/primary.xml file or repository folder ('-' = stdin)",
    )
    source.add_argument(
        "--template",
        metavar="FILE",
        action="append",
        help="sync a template's own packageRepositories (repeatable)",
    )
    sync.add_argument("--retries", type=int, default=3, metavar="N", help="retries per file")
    sync.add_argument("--timeout", type=float, default=30.0, metavar="S", help="seconds per try")
    sync.add_argument("--backoff", type=float, default=0.5, help=argparse.SUPPRESS)
    sync.set_defaults(handler=_cmd_sync)

    check = actions.add_parser(
        "check",
        parents=[common()],
        help="check templates' packages against the indexes of their targets",
    )
    check.add_argument("templates", nargs="+", metavar="TEMPLATE", help="template files or folders")
    check.add_argument(
        "--no-suggest", action="store_true", help="skip suggestions for missing packages"
    )
    check.set_defaults(handler=_cmd_check)

    status = actions.add_parser(
        "status", parents=[common(), target], help="list the indexed targets and repositories"
    )
    status.set_defaults(handler=_cmd_status)


def _usage(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return EXIT_USAGE

    return handler


def _print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _settings(args: argparse.Namespace) -> Any:
    from oic_ai.stores.settings import load_settings

    return load_settings(
        getattr(args, "config", None),
        data_dir=getattr(args, "data_dir", None),
        templates_dir=getattr(args, "templates_dir", None),
        chroma_url=getattr(args, "chroma_url", None),
        embedding_provider=getattr(args, "embedding_provider", None),
    )


def _cmd_sync(args: argparse.Namespace) -> int:
    from oic_ai.render_packages import download_progress, print_sync_results
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.package_index import PackageIndex
    from oic_ai.stores.package_sources import (
        Fetcher,
        find_providerconfigs,
        import_local,
        refresh_recorded,
        repos_from_providerconfig,
        resolve_target,
        summarize_failures,
        sync_repo,
        sync_template_repos,
    )

    if args.retries < 0 or args.timeout <= 0:
        raise UserInputError("--retries must be >= 0 and --timeout > 0", fix="fix the values")
    settings = _settings(args)
    index = PackageIndex.for_data_dir(settings.data_dir)
    progress, stop = download_progress(not args.json)
    fetcher = Fetcher(
        timeout=args.timeout, retries=args.retries, backoff=args.backoff, progress=progress
    )
    try:
        if args.index:
            os_name, dist, arch = resolve_target(args.os, args.dist, args.arch)
            results = import_local(index, Path(args.index), os=os_name, dist=dist, arch=arch)
        elif args.repo_config:
            results = []
            for pick in find_providerconfigs(Path(args.repo_config), args.os, args.dist, args.arch):
                for repo in repos_from_providerconfig(pick.path):
                    results.extend(
                        sync_repo(
                            index,
                            repo,
                            os=pick.os,
                            dist=pick.dist,
                            arch=pick.arch,
                            fetcher=fetcher,
                        )
                    )
        elif args.template:
            results = []
            for template in args.template:
                results.extend(
                    sync_template_repos(index, _read_template(Path(template)), fetcher=fetcher)
                )
        else:
            only = resolve_target(args.os, args.dist, args.arch)[1] if args.dist else None
            results = refresh_recorded(index, dist=only, arch=args.arch, fetcher=fetcher)
            if not results:
                raise UserInputError(
                    "no repositories have been synced yet",
                    fix="pass --repo-config PROVIDERCONFIG, --template FILE or --index FILE",
                )
    finally:
        stop()
        index.close()
    if args.json:
        _print_json(
            {
                "database": str(index.path),
                "ok": all(r.ok for r in results),
                "results": [r.to_json() for r in results],
            }
        )
    else:
        print_sync_results(results, index.path)
    failure = summarize_failures(results)
    if failure:
        raise UserInputError(
            failure, fix="check the network or the repository URL, then run the sync again"
        )
    return EXIT_OK


def _read_template(path: Path) -> dict[str, Any]:
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserInputError(f"{path} does not exist", fix="check the path") from None
    except IsADirectoryError:
        raise UserInputError(f"{path} is a folder", fix="pass a template file") from None
    except OSError as exc:
        raise UserInputError(
            f"cannot read {path} ({exc.strerror or exc})", fix="check the path"
        ) from None
    except UnicodeDecodeError:
        raise UserInputError(f"{path} is not UTF-8 text", fix="pass a YAML template") from None
    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        raise UserInputError(f"{path} is not valid YAML ({exc})", fix="fix the YAML") from None
    if not isinstance(data, dict):
        raise UserInputError(
            f"{path} does not hold a template (not a mapping)", fix="pass a template file"
        )
    return data


def _template_files(raw_paths: list[str]) -> list[Path]:
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.template_library import iter_template_files

    files: list[Path] = []
    for raw in raw_paths:
        path = Path(raw)
        if path.is_dir():
            found = list(iter_template_files(path))
            if not found:
                raise UserInputError(
                    f"{path} holds no .yml or .yaml files", fix="pass template files"
                )
            files.extend(found)
        elif not path.exists():
            raise UserInputError(f"{path} does not exist", fix="check the path")
        else:
            files.append(path)
    return files


def _cmd_check(args: argparse.Namespace) -> int:
    from oic_ai.tools.verify_packages import index_for, verify_template_packages

    settings = _settings(args)
    files = _template_files(args.templates)
    templates = [(path, _read_template(path)) for path in files]  # all read before any output
    index = index_for(settings.data_dir)
    reports = [
        verify_template_packages(data, index=index, path=str(path), suggest=not args.no_suggest)
        for path, data in templates
    ]
    if args.json:
        _print_json({"templates": [report.to_json() for report in reports]})
    else:
        from oic_ai.render_packages import print_check

        print_check(reports)
    return EXIT_OK if all(report.ok for report in reports) else EXIT_INVALID


def _cmd_status(args: argparse.Namespace) -> int:
    from oic_ai.stores.package_index import PackageIndex

    settings = _settings(args)
    index = PackageIndex.for_data_dir(settings.data_dir)
    rows = index.sources(args.dist, args.arch)
    index.close()
    if args.json:
        _print_json({"database": str(index.path), "sources": [row.to_json() for row in rows]})
    else:
        from oic_ai.render_packages import print_status

        print_status(rows, index.path)
    return EXIT_OK
