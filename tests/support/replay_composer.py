"""A recorded composer run, replayed: prints a real ``image-composer-tool build`` log.

Building an image needs root and minutes; the log reader, the stage progress and the
build service's flow are tested on what the real composer printed (tests/fixtures/
composer/*.log, recorded on this machine kind) instead. The real composer runs in
``make e2e-build`` (tests/e2e/). Environment:

- ``OIC_REPLAY_LOG``: the recorded log; ``@ARTIFACTS@`` and ``@CONFIG@`` are filled in;
- ``OIC_REPLAY_ARTIFACTS``: the folder the artifacts named in the log are written to;
- ``OIC_REPLAY_IMAGE``: a raw image, written gzipped as the log's ``.raw.gz`` artifact;
- ``OIC_REPLAY_EXIT``: the exit code (default 0);
- ``OIC_REPLAY_ARGS``: a file that gets the arguments and the working folder, as JSON.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys
from pathlib import Path


def main() -> int:
    env = os.environ
    args = sys.argv[1:]
    if env.get("OIC_REPLAY_ARGS"):
        Path(env["OIC_REPLAY_ARGS"]).write_text(json.dumps({"args": args, "cwd": os.getcwd()}))
    artifacts = Path(env.get("OIC_REPLAY_ARTIFACTS", "."))
    config = args[args.index("--config") + 1] if "--config" in args else ""
    for line in Path(env["OIC_REPLAY_LOG"]).read_text(encoding="utf-8").splitlines():
        line = line.replace("@ARTIFACTS@", str(artifacts)).replace("@CONFIG@", config)
        marker = "Checking file: "
        if marker in line and line.endswith("(isDir=false)"):
            name = line.split(marker, 1)[1][: -len("(isDir=false)")].strip()
            artifacts.mkdir(parents=True, exist_ok=True)
            image = env.get("OIC_REPLAY_IMAGE")
            if name.endswith(".raw.gz") and image:
                with open(image, "rb") as source, gzip.open(artifacts / name, "wb", 1) as out:
                    shutil.copyfileobj(source, out)
            else:
                (artifacts / name).write_bytes(b"")
        print(line, flush=True)
    return int(env.get("OIC_REPLAY_EXIT", "0"))


if __name__ == "__main__":
    raise SystemExit(main())
