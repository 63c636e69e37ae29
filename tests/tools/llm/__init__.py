"""Tests at the wire: the plan schema, structured output and the LLM planners."""
