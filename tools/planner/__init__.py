"""The builtin planner: turn a request into an :class:`~oic_ai.tools.edit_plan.EditPlan` by rules.

It is the embedded default planner: no LLM, no network, a few milliseconds. Rules match
spans of the request (disk size, partitions, users, kernel, target ...) and mark them
used; what is left is read as package and capability words through the curated
capability catalog; whatever is still left over is reported in ``not_applied``, so no
part of a request is dropped silently. A password in the request is cut out before
anything else looks at the text and never reaches the plan.

The planner only decides *what* to change. :mod:`oic_ai.tools.applier` decides how
the YAML changes (root partition types on an arch change, carving partitions,
placeholders).

Modules: :mod:`.words` (the request's vocabulary), :mod:`.text` (the request text, its
tokens and list items), :mod:`.redact` (passwords), :mod:`.state` (the working state),
:mod:`.rules` (one module per rule family), :mod:`.summary` and :mod:`.builtin` (the
orchestrator, :func:`plan_request`). The base template is read by
:func:`oic_ai.stores.template_model.template_from_text`.
"""

from oic_ai.tools.planner.builtin import plan_request
from oic_ai.tools.planner.state import Mode

__all__ = ["Mode", "plan_request"]
