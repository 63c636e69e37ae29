"""The ``oic-ai`` command line: parse, call a service, render.

- :mod:`.main`: the entry point and the exit codes;
- :mod:`.parser`: the whole argument definition (help, completion and ``main`` read it);
- :mod:`.commands`: one module per command group, each calling a service of
  :mod:`oic_ai.services` and a renderer;
- :mod:`.render`: what a human reads on the terminal (``--json`` is printed as is);
- :mod:`.common` and :mod:`.help`: shared flags, settings from flags, ``--json``; the
  examples and command groups of ``--help``.

Imports point down this list and never back up.
"""
