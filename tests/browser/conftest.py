"""A real ``oic-ai serve`` and a real headless Chromium for the browser tests.

The server runs the builtin planner on a free loopback port, with its own data folder
(sessions, Chroma, package index) and its own copy of the template library (the page's
Save writes into it), and is stopped by its process group. Each test gets a fresh browser
profile. Screenshots go into one folder per run, printed at the start and kept after it.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, oic, oic_json
from tests.support.servers import Server, loopback_server
from tests.support.system import require_program

from .driver import chrome, console_errors
from .page import CREATE, ask, open_page, template_text


@dataclass
class UiServer:
    """The running server, its data and templates folders, and the CLI environment for it."""

    server: Server
    templates: Path
    data_dir: Path
    env: dict[str, str]

    @property
    def url(self) -> str:
        """The page's address."""
        return self.server.url + "/ui/"

    def cli(self, *args: str) -> Any:
        """Run ``oic-ai`` on the same data and templates folders as the server."""
        return oic(*args, env=self.env)


def serve_env(data_dir: Path, templates: Path, **extra: str) -> dict[str, str]:
    """The environment of the server and of the CLI commands that inspect its sessions."""
    return cli_env(
        data_dir,
        **{
            "OIC_AI_PROVIDER": "builtin",
            "OIC_AI_TEMPLATES_DIR": str(templates),
            "LANGGRAPH_CLI_NO_ANALYTICS": "1",
            "LANGGRAPH_NO_VERSION_CHECK": "1",
            **extra,
        },
    )


def add_user(root: Path, name: str = "alice") -> str:
    """Add user ``name`` to the data folder ``ui_server_at(root)`` serves; their token."""
    env = serve_env(root / "data", root / "image-templates")
    token: str = oic_json("users", "add", name, env=env)["token"]
    return token


@contextmanager
def ui_server_at(
    root: Path, packages: dict[str, Path] | None = None, env: dict[str, str] | None = None
) -> Iterator[UiServer]:
    """Index a copy of the library, then run ``oic-ai serve --no-browser`` until closed.

    Args:
        root: The folder for the server's data, templates and log (and its working folder).
        packages: ``"dist/arch"`` -> a Debian ``Packages`` file to import as that target's
            package index before the server starts.
        env: More environment for the server (e.g. a provider and its fake model server).
    """
    templates = root / "image-templates"
    shutil.copytree(OUR_TEMPLATES, templates)
    data_dir = root / "data"
    server_env = serve_env(data_dir, templates, **(env or {}))
    env = serve_env(data_dir, templates)  # the CLI's: builtin, whatever the server plans with
    indexed = oic("index", env=env)
    assert indexed.returncode == 0, indexed.stderr[-2000:]
    for target, index in (packages or {}).items():
        dist, arch = target.split("/")
        synced = oic(
            "packages", "sync", "--index", str(index), "--dist", dist, "--arch", arch, env=env
        )
        assert synced.returncode == 0, synced.stderr[-2000:]

    def args(port: int) -> list[str]:
        return ["-m", "oic_ai", "serve", "--no-browser", "--host", "127.0.0.1", "--port", str(port)]

    with loopback_server(
        Path(sys.executable),
        args,
        health="/ui/",
        expect="oic-ai",
        env=server_env,
        root=root,
        data_dir=data_dir,
        cwd=root,
    ) as server:
        yield UiServer(server, templates, data_dir, env)


@pytest.fixture(scope="module")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UiServer]:
    """One ``oic-ai serve`` per test module (tests use their own sessions)."""
    with ui_server_at(tmp_path_factory.mktemp("serve")) as ui:
        yield ui


@pytest.fixture
def stopped_server(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The page after one turn (:data:`CREATE`) on a server that has stopped since.

    Returns the template the page showed when its server stopped.
    """
    with ui_server_at(tmp_path_factory.mktemp("stopped")) as ui:
        open_page(browser, ui.url)
        ask(browser, CREATE)
        return template_text(browser)


@pytest.fixture(scope="session")
def screenshots(pytestconfig: pytest.Config) -> Path:
    """The folder screenshots go into; printed (past pytest's capture) at the start."""
    folder = Path(tempfile.mkdtemp(prefix="oic-ai-browser-shots-"))
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else _nothing():
        print(f"\nbrowser screenshots: {folder}", flush=True)
    return folder


@contextmanager
def _nothing() -> Iterator[None]:
    yield


@pytest.fixture(scope="session")
def browser_programs() -> tuple[Path, Path]:
    """Debian's chromium and chromedriver (skip, or fail under CI, when missing)."""
    return require_program("chromium"), require_program("chromedriver")


@pytest.fixture
def browser(
    browser_programs: tuple[Path, Path],
    tmp_path: Path,
    screenshots: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Any]:
    """A fresh headless Chromium; the test must leave no console errors behind.

    A test that provokes an error on purpose (e.g. a 409 when saving over a name) lists
    the expected texts in ``browser.allowed_console`` (a list it may extend).
    """
    chromium, chromedriver = browser_programs
    with chrome(chromium, chromedriver, tmp_path / "profile", tmp_path / "driver.log") as driver:
        driver.allowed_console = []
        driver.shots = screenshots
        driver.shot_prefix = request.node.name
        yield driver
        driver.save_screenshot(str(screenshots / f"{request.node.name}-end.png"))
        errors = console_errors(driver, tuple(driver.allowed_console))
        assert not errors, f"console errors in the page: {errors}"
