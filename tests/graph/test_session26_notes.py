"""The answer says why nothing changed: a package already there, one not there to remove.

"add htop" a second time, "remove vim" from a template without it, "drop nomodeset from the
cmdline" of a line without it: the planner knew, but the answer only said "Changes: none.",
so the user could not tell an ignored request from one already met.
"""

from __future__ import annotations

from pathlib import Path

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings


def test_the_answer_says_what_was_already_so(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image for x86_64, add htop")
        again = agent.generate("add htop", session=first.session)
        absent = agent.generate("remove vim", session=first.session)
        flag = agent.generate("drop nomodeset from the cmdline", session=first.session)
        changed = agent.generate("add jq", session=first.session)
    assert again.template == first.template and absent.template == first.template
    assert "Changes: none." in (again.message or "")
    assert "Already present: htop." in (again.message or "")
    assert "Not in the template, nothing to remove: vim." in (absent.message or "")
    assert "Nomodeset is not on the kernel command line." in (flag.message or "")
    message = changed.message or ""
    assert "jq" in message and "Already present" not in message  # nothing stale carried


def test_which_base_and_who_logs_in_are_answered_as_asked(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image, user ops with sudo")
        base = agent.generate("which template did you start from?", session=first.session)
        based = agent.generate("what is it based on?", session=first.session)
        login = agent.generate("who can log in?", session=first.session)
    started = f"Started from the library template {first.base_template}."
    assert first.base_template and started in (base.message or "")
    assert started in (based.message or "")
    assert base.template == first.template  # a question changes nothing
    assert "Users: ops" in (login.message or "")
    assert "Here is a summary" not in (login.message or "")  # the users, not everything
