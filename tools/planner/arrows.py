"""An arrow after a field's label, read as setting the field: "hostname -> pilot-edge-a".

People write a change as an arrow: "hostname -> pilot-edge-a", "disk size => 20GiB",
"image name → plc-gw-2", and with the old value before it: "hostname pilot-edge-01 ->
pilot-edge-a". After the label of a field that holds one value (the hostname, the image's
name or version, the disk's size) the arrow sets it: the first is read as "hostname:
pilot-edge-a", the second as "hostname: pilot-edge-a instead of pilot-edge-01". An arrow
anywhere else ("PXE -> kernel + initrd", "podman -> docker") is left as written.
"""

from __future__ import annotations

import re

_ARROW = r"[ \t]*(?:-+>|=+>|\u2192|\u21d2|\u27f6|\u2794)[ \t]*"
_LABEL = (
    r"(?P<label>\b(?:host[\s-]?name|image[\s_-]?name|image[\s_-]?version|"
    r"disk(?:[\s_-]?size)?)\b)"
)
_VALUE = r"[\"'`]?[\w.+-]*\w[\"'`]?"
_OLD_TO_NEW = re.compile(
    rf"{_LABEL}(?:[ \t]*:)?[ \t]+(?P<old>{_VALUE}){_ARROW}(?P<new>{_VALUE})(?![\w.-])",
    re.IGNORECASE,
)
_TO_NEW = re.compile(rf"{_LABEL}[ \t]*:?{_ARROW}(?=\S)", re.IGNORECASE)


def read_arrows(text: str) -> str:
    """``text`` with an arrow after a field's label read as setting it (see above)."""
    text = _OLD_TO_NEW.sub(lambda m: f"{m['label']}: {m['new']} instead of {m['old']}", text)
    return _TO_NEW.sub(lambda m: f"{m['label']}: ", text)
