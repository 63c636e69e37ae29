"""Agent tools as plain functions: validate, verify packages, fix, suggest, search.

Each tool is a plain function first; LangChain ``@tool`` wrappers live in
``tools.agent_tools`` so the command line does not pay for importing LangChain.
"""
