"""Where the served API's users live: the token file, or PostgreSQL with the sessions.

With ``OIC_AI_DATABASE_URL`` (``ai.sessions.url``) set, users and token hashes are in that
database (:mod:`oic_ai.stores.users_pg`), so every replica and every host's ``oic-ai
users`` share them; otherwise the token file (:mod:`oic_ai.stores.users`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oic_ai.stores.users import TokenVerifier, UserStore, tokens_file

if TYPE_CHECKING:
    from oic_ai.stores.settings import Settings
    from oic_ai.stores.users_pg import PgTokenVerifier, PgUserStore


def user_store(settings: Settings) -> UserStore | PgUserStore:
    """The store ``oic-ai users`` adds to, lists and removes from."""
    if settings.database_url:
        from oic_ai.stores.users_pg import PgUserStore

        return PgUserStore(settings.database_url, tokens_file(settings.data_dir))
    return UserStore(tokens_file(settings.data_dir))


def token_verifier(settings: Settings) -> TokenVerifier | PgTokenVerifier:
    """The verifier a server checks bearer tokens with."""
    if settings.database_url:
        from oic_ai.stores.users_pg import PgTokenVerifier

        return PgTokenVerifier(settings.database_url, tokens_file(settings.data_dir))
    return TokenVerifier(tokens_file(settings.data_dir))
