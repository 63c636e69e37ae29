"""The agent's tools and the logic behind them; imports only ``stores``.

- tools an LLM can call (``@tool``): ``search_templates`` (in ``search_templates``),
  ``explain_template`` (in ``explain_template``), and ``validate_template``,
  ``verify_packages``, ``suggest_packages`` and ``fix_errors`` (in ``agent_tools``, so the
  command line does not pay for importing LangChain);
- the plain functions under them: ``validate_template`` + ``template_checks``,
  ``verify_packages``, ``suggest_packages``, ``fix_errors``, ``retrieval/``;
- planning: ``edit_plan`` (the plan type), ``planner/`` (builtin rules), ``llm_planner``
  with ``llm_prompt``, ``llm_parse`` and ``plan_schema`` (the LLM path), ``chat_backend``;
- applying: ``applier/`` (round-trip YAML edits), ``partition_layout``, ``template_keys``.
"""
