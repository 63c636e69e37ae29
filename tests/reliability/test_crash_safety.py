"""SIGKILL the CLI in the middle of indexing and of generation; the next run must work.

Indexing: the index stays consistent (a killed run leaves the entries it had committed,
never a broken store) and the next ``index`` heals it, counting every file exactly once.
Generation: the session keeps its last finished turn, the database passes
``PRAGMA integrity_check``, and the next turn continues the numbering from the template
the crashed turn started from.
"""

from __future__ import annotations

import fcntl
import shutil
import sys
from pathlib import Path

import yaml

from oic_ai.graph.builder import build_graph
from oic_ai.graph.checkpointer import open_sqlite_saver
from oic_ai.stores.session_store import sessions_db_path
from tests.conftest import OUR_TEMPLATES, PROJECT
from tests.support.cli import cli_env, oic_here_json, oic_json
from tests.support.fake_chat_server import FakeChatServer
from tests.support.processes import integrity, sigkill, started, wait_for

COMMITTED_BATCHES, BATCH = 2, 4

# `oic-ai index` with Chroma writes of BATCH records that stop for good after
# COMMITTED_BATCHES: a kill then lands between two committed writes, deterministically.
STALLED_INDEX = f"""
import sys, time
from pathlib import Path
from oic_ai.stores import template_index

marker = Path(sys.argv[1])
real_collection = template_index.TemplateIndex.collection.fget


class Stalling:
    def __init__(self, inner):
        self.inner, self.calls = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def upsert(self, **records):
        if self.calls == {COMMITTED_BATCHES}:
            marker.write_text(str(self.calls))
            time.sleep(3600)
        self.inner.upsert(**records)
        self.calls += 1


def collection(self):
    if getattr(self, "_stalling", None) is None:
        self._stalling = Stalling(real_collection(self))
    return self._stalling


template_index.TemplateIndex.collection = property(collection)
template_index.TemplateIndex.write_batch = lambda self: {BATCH}
from oic_ai.cli.main import main

sys.exit(main(sys.argv[2:]))
"""


def _library(root: Path) -> Path:
    """Our templates, in two folders so ids carry a folder part."""
    library = root / "library"
    for index, path in enumerate(sorted(OUR_TEMPLATES.glob("*.yml"))):
        folder = library / ("edge" if index % 2 else "base")
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, folder / path.name)
    return library


def _lock_is_held(lock: Path) -> bool:
    """True while another process holds the index writer lock."""
    if not lock.exists():
        return False
    with lock.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def test_a_killed_index_run_is_healed_by_the_next(tmp_path: Path, agent_data_dir: Path) -> None:
    library = _library(tmp_path)
    files = sorted(p.relative_to(library).as_posix() for p in library.rglob("*.yml"))
    data = tmp_path / "crashed-data"
    env = cli_env(data)
    lib = ["--templates-dir", str(library)]

    # 1. The real CLI, killed while it holds the writer lock (embedding the library).
    argv = [sys.executable, "-m", "oic_ai", "index", "--json", *lib]
    with started(argv, env=env, log=tmp_path / "index-1.log", cwd=PROJECT, grace=0) as first:
        wait_for(lambda: _lock_is_held(data / "index.lock"), first, "the index lock")
        sigkill(first)
    assert "created" not in (tmp_path / "index-1.log").read_text()  # it never reported
    assert oic_json("cache", "stats", *lib, env=env)["entries"] == 0  # nothing half-written

    # 2. Killed again after two committed Chroma writes of four records each.
    marker = tmp_path / "stalled"
    argv = [sys.executable, "-c", STALLED_INDEX, str(marker), "index", "--json", *lib]
    with started(argv, env=env, log=tmp_path / "index-2.log", cwd=PROJECT, grace=0) as second:
        wait_for(marker.exists, second, "the stalled write")
        sigkill(second)
    partial = COMMITTED_BATCHES * BATCH
    assert oic_json("cache", "stats", *lib, env=env)["entries"] == partial
    assert integrity(data / "chroma" / "chroma.sqlite3") == "ok"

    # 3. The next run heals it: every file counted once, only the missing ones embedded.
    healed = oic_json("index", *lib, env=env)
    assert (healed["created"], healed["unchanged"]) == (len(files) - partial, partial)
    assert (healed["updated"], healed["deleted"], healed["skipped"]) == (0, 0, [])
    assert healed["embedded"] == len(files) - partial
    # No process writes from here on: the rest reads (and re-runs the index) in-process.
    stats = oic_here_json("cache", "stats", *lib, env=env)
    assert stats["entries"] == len(files) and len(stats["collections"]) == 1
    assert stats["last_run"]["misses"] == len(files) - partial
    again = oic_here_json("index", *lib, env=env)
    assert (again["unchanged"], again["embedded"]) == (len(files), 0)

    # Search over the healed index ranks exactly as over an index that never crashed.
    clean = cli_env(agent_data_dir)  # the same templates, indexed in one clean run
    for query in ("ubuntu 24.04 ros2 robotics", files[0].rsplit("/", 1)[-1][:-4]):
        healed_hits = oic_here_json("search", query, *lib, env=env)["results"]
        clean_hits = oic_here_json("search", query, env=clean)["results"]
        assert healed_hits and [
            (h["template"].rsplit("/", 1)[-1], h["score"]) for h in healed_hits
        ] == [(h["template"], h["score"]) for h in clean_hits]
    assert any(h["template"] == files[0] for h in healed_hits)  # written by the killed run


FIRST = "a minimal ubuntu 24.04 image for x86_64"
CRASHED = "add htop and vim"
NEXT = "make the disk 16GiB"


def test_a_killed_generation_resumes_from_the_last_checkpoint(
    agent_data_dir: Path, tmp_path: Path
) -> None:
    with FakeChatServer(['{"summary": "never sent", "operations": []}']) as backend:
        env = cli_env(
            agent_data_dir,
            OPENAI_API_KEY="sk-test-crash",
            OPENAI_BASE_URL=backend.openai_url,
        )
        made = oic_json("generate", FIRST, "--provider", "builtin", env=env)
        session, template = made["session"], made["template"]
        assert (made["turn"], made["status"]) == (1, "valid")

        # The second turn hangs inside `generate`, waiting for the model: kill it there.
        backend.fail("slow", delay=120)
        argv = [sys.executable, "-m", "oic_ai", "generate", CRASHED, "--session", session]
        argv += ["--provider", "openai", "--json"]
        with started(argv, env=env, log=tmp_path / "generate.log", cwd=PROJECT, grace=0) as turn:
            wait_for(lambda: bool(backend.requests), turn, "the chat request")
            sigkill(turn)
        assert len(backend.requests) == 1

    db = sessions_db_path(agent_data_dir)
    assert integrity(db) == "ok"
    (row,) = oic_json("sessions", "list", env=env)["sessions"]
    assert (row["id"], row["turns"], row["status"], row["request"]) == (
        session,
        1,
        "valid",
        FIRST,
    )
    # The crashed turn's classify checkpoint was written: the thread stopped before generate.
    with open_sqlite_saver(agent_data_dir) as saver:
        snapshot = build_graph(saver).get_state({"configurable": {"thread_id": session}})
    assert snapshot.next == ("generate",)
    assert snapshot.values["request"] == CRASHED and snapshot.values["turn"] == 1
    assert snapshot.values["template"] == template  # the last good template is intact

    # The next turn works on the same session and continues the numbering.
    after = oic_json("generate", NEXT, "--session", session, "--provider", "builtin", env=env)
    assert (after["session"], after["turn"], after["status"]) == (session, 2, "valid")
    before, now = yaml.safe_load(template), yaml.safe_load(after["template"])
    assert now["disk"]["size"] == "16GiB"
    assert now["systemConfig"]["packages"] == before["systemConfig"]["packages"]  # no htop
    now["disk"]["size"] = before["disk"]["size"]
    assert now == before  # nothing else of the crashed turn leaked in
    replayed = oic_json("sessions", "replay", session, env=env)
    assert [(t["turn"], t["request"]) for t in replayed["turns"]] == [(1, FIRST), (2, NEXT)]
    (row,) = oic_json("sessions", "list", env=env)["sessions"]
    assert (row["turns"], row["request"]) == (2, NEXT)
    assert integrity(db) == "ok"
