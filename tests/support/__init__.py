"""What tests share: fakes, the CLI runner, processes and the server fixtures.

* :mod:`tests.support.env`: the developer's provider, key and tracing variables, removed.
* :mod:`tests.support.cli`: ``python -m oic_ai`` (and ``python -c``) in a fresh process.
* :mod:`tests.support.processes`: start on a free loopback port, wait ready, stop by PID.
* :mod:`tests.support.servers`: ``langgraph dev`` and ``chroma run`` as fixtures.
* :mod:`tests.support.loopback`: the threaded loopback HTTP server the fakes build on.
* :mod:`tests.support.fake_models`: a scripted chat model and a hash embedder (in-process).
* :mod:`tests.support.fake_chat_server`: an Ollama/OpenAI chat backend that misbehaves.
* :mod:`tests.support.fake_embedding_server`: Ollama/OpenAI embedding endpoints, likewise.
"""
