"""Errors a user can cause, each carrying one line that names the problem and the fix."""

from __future__ import annotations


class UserInputError(Exception):
    """A problem the user can fix: bad input, missing file, unreachable backend.

    The command line prints ``str(error)`` as a single line and exits with ``exit_code``:
    2 (fix the input) unless a subclass or the raiser marks the failure retryable (3).
    Configured secrets in the text (a key a server echoed back) are masked.
    """

    exit_code = 2

    def __init__(self, message: str, *, fix: str | None = None) -> None:
        """Build the error from what went wrong and, optionally, how to fix it."""
        from oic_ai.stores.secrets import mask_secrets

        message = mask_secrets(message)
        fix = mask_secrets(fix) if fix else fix
        self.problem = message
        self.fix = fix
        super().__init__(f"{message}; {fix}" if fix else message)


class BackendUnavailableError(UserInputError):
    """A server or backend that cannot be reached or keeps failing: worth a retry (exit 3)."""

    exit_code = 3
