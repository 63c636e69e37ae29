"""Apply an :class:`~oic_ai.tools.edit_plan.EditPlan` to template YAML, deterministically.

The package keeps three concerns apart:

- round-trip mechanics, with no knowledge of templates: :mod:`.yaml_io` (load, dump,
  copy, indentation style, diff), :mod:`.merge` (the three-way line merge) and
  :mod:`.sections` (parsed documents, their cache, and byte-preserving rendering that
  dumps only the entries an edit changed);
- :mod:`.comments`: keeping comment lines next to what they describe as entries come
  and go, and :mod:`.yaml_values`: new scalars and lists in the style around them;
- the operation handlers, one module per group: :mod:`.ops_packages`, :mod:`.ops_disk`
  (disk and partitions), :mod:`.ops_target` (target and image), :mod:`.ops_system`
  (hostname, kernel, bootloader, immutability, users) and :mod:`.ops_values` (values by
  path, metadata), over the shared :mod:`.editor`; the domain tables they read are in
  :mod:`.targets`.

:mod:`.apply` is the entry: it runs each operation's handler and writes the text back.
"""

from oic_ai.tools.applier.apply import AppliedPlan, apply_plan
from oic_ai.tools.applier.yaml_io import unified_diff

__all__ = ["AppliedPlan", "apply_plan", "unified_diff"]
