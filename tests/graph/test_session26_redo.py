"""Redo: "redo" puts back what the last undo took back; a new change ends the redo chain.

"redo" used to be reported as "no rule for this". Each undo turn now keeps the template it
left (``redo_stack``); a redo makes the last one current again, as a turn of its own that
an undo can take back. A turn that changes anything else empties the stack, so "redo"
after it says there is nothing to redo.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings


def _packages(template: str | None) -> list[str]:
    return list((yaml.safe_load(template or "") or {})["systemConfig"].get("packages") or [])


def _host(template: str | None) -> str:
    return str((yaml.safe_load(template or "") or {})["systemConfig"].get("hostname"))


def test_redo_puts_back_what_undo_took_back_in_order(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image for x86_64")
        session = first.session
        agent.generate("add nginx", session=session)
        named = agent.generate("hostname web-1", session=session)
        agent.generate("undo", session=session)
        twice = agent.generate("undo again", session=session)
        assert "nginx" not in _packages(twice.template)
        once = agent.generate("redo", session=session)
        assert "nginx" in _packages(once.template) and _host(once.template) != "web-1"
        assert "Redid turn 2 ('add nginx')." in (once.message or "")
        again = agent.generate("redo that", session=session)
        assert again.template == named.template  # the hostname is back too
        nothing = agent.generate("redo", session=session)
        assert nothing.template == named.template
        assert "Nothing to redo" in (nothing.message or "")
        back = agent.generate("undo", session=session)  # an undo takes the redo back
        assert _host(back.template) != "web-1" and "nginx" in _packages(back.template)


def test_a_new_change_ends_the_redo_chain(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "data", env={}, provider="builtin")
    with TemplateAgent(settings) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image for x86_64")
        session = first.session
        agent.generate("add nginx", session=session)
        agent.generate("undo", session=session)
        changed = agent.generate("add jq", session=session)
        redo = agent.generate("redo", session=session)
    assert redo.template == changed.template and "nginx" not in _packages(redo.template)
    assert "Nothing to redo" in (redo.message or "")
