"""Grammar checks with llguidance: does a schema compile, does it accept a given text."""

from __future__ import annotations

import json
from typing import Any


def compile_problem(schema: Any) -> str:
    """Empty when ``schema`` compiles into a grammar, else llguidance's error text."""
    import llguidance

    try:
        grammar = llguidance.grammar_from("json_schema", json.dumps(schema))
    except (TypeError, ValueError) as exc:
        return str(exc) or type(exc).__name__
    return str(llguidance.LLMatcher.validate_grammar(grammar))


def accepts(schema: Any, text: str) -> bool:
    """True when the grammar of ``schema`` accepts ``text`` byte by byte (no tokenizer)."""
    import llguidance

    tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_ByteTokenizer()))
    grammar = llguidance.grammar_from("json_schema", json.dumps(schema))
    matcher = llguidance.LLMatcher(tokenizer, grammar)
    tokens = list(text.encode())
    if not matcher.consume_tokens(tokens) or matcher.is_error():
        return False
    return bool(matcher.is_accepting())


class _ByteTokenizer:
    """A 256-token vocabulary, one token per byte, plus an end token."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]

    def __call__(self, text: str | bytes) -> list[int]:
        data = text.encode() if isinstance(text, str) else text
        return list(data)
