"""Four CLI processes at once on one data folder: no turn is lost, nothing is "locked".

Each round starts two ``generate`` runs (new sessions and continued ones), an ``index`` of a
library that just changed, and a ``sessions list``, all together on one
``OIC_AI_DATA_DIR``. Every process must exit 0 without a traceback or a "database is
locked", and every session must end with exactly the turns it was given (read at the
end through ``sessions list`` and ``sessions replay`` in this process, once the processes
are done).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.conftest import OUR_TEMPLATES
from tests.support.cli import cli_env, finish_all, oic_here_json, oic_json, start_oic
from tests.support.processes import integrity

REQUESTS = {
    "a": ["a minimal ubuntu 24.04 image for x86_64", "add htop", "make the disk 16GiB"],
    "b": ["a debian 13 web server for x86_64", "add curl", "make the disk 24GiB"],
    "c": ["an azure linux 3 container host", "add vim", "make the disk 12GiB"],
}
# round -> the sessions that take a turn in it (two generate processes per round): two new
# sessions at once, a new one beside a continued one, two continued ones; each pair once
ROUNDS = [("a", "b"), ("a", "c"), ("b", "c")]


def _start(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return start_oic(env, *args, "--json")


def test_four_cli_processes_share_one_data_folder(agent_data_dir: Path, tmp_path: Path) -> None:
    library = tmp_path / "library"
    shutil.copytree(OUR_TEMPLATES, library)  # same names and bytes: the index is current
    env = cli_env(agent_data_dir, OIC_AI_TEMPLATES_DIR=str(library))
    names = sorted(p.name for p in library.glob("*.yml"))
    sessions: dict[str, str] = {}
    turns = dict.fromkeys(REQUESTS, 0)

    for number, pair in enumerate(ROUNDS):
        touched = library / names[number]  # one changed template for this round's index
        touched.write_text(touched.read_text() + f"# round {number}\n")
        runs: list[tuple[str | None, subprocess.Popen[str]]] = []
        for key in pair:
            request = REQUESTS[key][turns[key]]
            where = ["--session", sessions[key]] if key in sessions else ["--new"]
            runs.append((key, _start(env, "generate", request, "--provider", "builtin", *where)))
        runs.append((None, _start(env, "index")))
        runs.append((None, _start(env, "sessions", "list")))
        outputs = finish_all(runs)

        for who, out, err, code in outputs:
            assert code == 0, (number, who, code, err[-3000:])
            assert "locked" not in err.lower() and "Traceback" not in err, err[-3000:]
            payload = json.loads(out)
            if who is None:
                continue
            turns[who] += 1
            sessions.setdefault(who, payload["session"])
            assert payload["session"] == sessions[who]
            assert payload["turn"] == turns[who], payload["message"]
            assert payload["status"] in ("valid", "valid_with_warnings"), payload["message"]
        index = json.loads(outputs[2][1])
        assert index["created"] + index["updated"] + index["unchanged"] == len(names)
        assert (index["deleted"], index["skipped"]) == (0, [])
        listed = json.loads(outputs[3][1])["sessions"]
        assert {s["id"] for s in listed} <= set(sessions.values())

    listed = {s["id"]: s for s in oic_here_json("sessions", "list", env=env)["sessions"]}
    assert set(listed) == set(sessions.values())
    for key, sid in sessions.items():
        row = listed[sid]
        assert (row["title"], row["turns"]) == (REQUESTS[key][0], turns[key])
        assert row["request"] == REQUESTS[key][turns[key] - 1]
        replayed = oic_here_json("sessions", "replay", sid, "--no-diff", env=env)
        assert [t["request"] for t in replayed["turns"]] == REQUESTS[key][: turns[key]]
    final = oic_json("index", env=env)
    assert (final["unchanged"], final["embedded"]) == (len(names), 0)  # every change landed
    assert integrity(agent_data_dir / "sessions.sqlite") == "ok"
    assert integrity(agent_data_dir / "chroma" / "chroma.sqlite3") == "ok"
