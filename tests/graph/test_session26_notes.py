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
