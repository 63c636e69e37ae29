"""The agent's tools as LangChain ``@tool`` functions a chat model can call.

Each tool is a thin wrapper over a plain function of its own module
(:mod:`~oic_ai.tools.validate_template`, :mod:`~oic_ai.tools.verify_packages`,
:mod:`~oic_ai.tools.suggest_packages`, :mod:`~oic_ai.tools.fix_errors`); its docstring is
what the model reads. The wrappers live here, not in those modules, because importing
``langchain_core.tools`` costs about 0.1-0.3 s, and ``oic-ai validate`` and
``oic-ai packages check`` import the plain modules on their start-up path. Two of the
tool names (``verify_packages``, ``suggest_packages``) are also the names of the plain
functions in their modules, which keep their richer signatures.

Settings (the data folder with the package indexes) resolve from the environment and
the config file, as ``load_settings()`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.tools import ToolException, tool

from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings

__all__ = ["AGENT_TOOLS", "fix_errors", "suggest_packages", "validate_template", "verify_packages"]


@tool(parse_docstring=True)
def validate_template(template: str) -> dict[str, Any]:
    """Validate an os-image-composer image template.

    Checks YAML syntax, the template JSON schema, semantic rules (partitions that fit
    the disk, root partition types for the arch, known enum values) and a security
    lint (no plaintext passwords). Use it on every template before showing it.

    Args:
        template: The whole template as YAML text.

    Returns:
        ``valid`` and the ``errors`` and ``warnings``, each with a JSON ``path``, a 1-based
        ``line``, a ``message`` and a stable ``code``.
    """
    from oic_ai.tools.validate_template import validate_text

    return validate_text(template).to_json()


@tool(parse_docstring=True)
def verify_packages(template: str) -> dict[str, Any]:
    """Check that every package a template installs exists for its target.

    Looks each name of ``systemConfig.packages`` up in the synced package indexes of the
    template's ``target`` (os, dist, arch) and of its own ``packageRepositories``, and
    proposes alternatives for missing names. When the target has no index, the result
    says ``checked: false`` with the reason; nothing is reported as found unless it was.

    Args:
        template: The whole template as YAML text.

    Returns:
        ``checked``, ``found``, ``missing``, ``unverified`` and ``suggestions`` (missing
        name to alternative names), plus ``reason`` and ``fix`` when not checked.
    """
    from oic_ai.tools.verify_packages import verify_template_text

    return verify_template_text(template, _settings()).to_json()


@tool(parse_docstring=True)
def suggest_packages(name: str, dist: str) -> list[str]:
    """Suggest package names to use instead of one that a distribution does not have.

    Alternatives come from known aliases (``docker-ce`` is ``docker.io`` on Debian and
    Ubuntu), from packages that provide the name, and from close names in the synced
    index of the dist (x86_64). Best first; empty when nothing fits.

    Args:
        name: The package name that was not found.
        dist: The target dist, e.g. ubuntu24, elxr12, azl3, emt3.

    Returns:
        At most five package names, best first.
    """
    from oic_ai.stores.package_repos import resolve_target
    from oic_ai.tools.suggest_packages import suggest_packages as suggest
    from oic_ai.tools.verify_packages import index_for

    try:
        os_name, dist, arch = resolve_target(None, dist, None)
    except UserInputError as exc:
        raise ToolException(str(exc)) from None
    view = index_for(_settings().data_dir).view(dist, arch)
    return suggest([name], os=os_name, dist=dist, arch=arch, view=view)[name]


@tool(parse_docstring=True)
def fix_errors(template: str) -> dict[str, Any]:
    """Fix the validation errors of a template that have one right answer.

    Applies deterministic repairs (missing required keys, misspelt enum values, a disk
    too small for its partitions, root partition types for the wrong arch, pinned package
    versions, duplicates) as small edits that keep comments and key order, then
    validates the result. Errors that need a decision are left and listed.

    Args:
        template: The whole template as YAML text.

    Returns:
        The new ``template``, whether it ``changed``, what was ``applied`` and
        ``not_applied``, the ``diff``, and the new ``validation`` result.
    """
    from oic_ai.tools.fix_errors import fix_template

    return fix_template(template)


def _settings() -> Settings:
    """Resolve settings, turning a bad config into an error the model can read."""
    from oic_ai.stores.settings import load_settings

    try:
        return load_settings()
    except UserInputError as exc:
        raise ToolException(str(exc)) from None


AGENT_TOOLS = (validate_template, verify_packages, suggest_packages, fix_errors)
"""The tools to bind to a chat model (``model.bind_tools(AGENT_TOOLS)``)."""

for _tool in AGENT_TOOLS:
    # A ToolException (a bad dist, a bad config file) reaches the model as the tool's
    # answer instead of ending the run.
    _tool.handle_tool_error = True
